// Helpers for the tests of `council serve`: a client over real HTTP that reads the raw event stream.

/** One event as read off the wire. */
export interface ReadEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/** Parses `text/event-stream` text into events (comment lines skipped); returns the events and the unparsed rest. */
export function parseEventStream(text: string): { events: ReadEvent[]; rest: string } {
  const events: ReadEvent[] = [];
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
    }
    if (fields.data === undefined) continue;
    events.push({
      id: Number(fields.id),
      type: fields.event ?? 'message',
      data: JSON.parse(fields.data) as Record<string, unknown>,
    });
  }
  return { events, rest };
}

/** A response read whole. */
export interface ClientResponse {
  status: number;
  headers: Headers;
  text: string;
  json(): unknown;
}

export interface ServeClient {
  request(path: string, init?: RequestInit & { headers?: Record<string, string> }): Promise<ClientResponse>;
  get(path: string): Promise<ClientResponse>;
  post(path: string, body: unknown): Promise<ClientResponse>;
  start(body: Record<string, unknown>): Promise<string>;
  events(
    id: string,
    read?: { lastEventId?: number; stopAfter?: number; onEvent?: (event: ReadEvent) => void },
  ): Promise<ReadEvent[]>;
}

export function createServeClient(options: { url: string; token: string }): ServeClient {
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${options.token}`, ...extra });
  const request = async (
    path: string,
    init: RequestInit & { headers?: Record<string, string> } = {},
  ): Promise<ClientResponse> => {
    const response = await fetch(`${options.url}${path}`, { ...init, headers: headers(init.headers) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
  };
  return {
    request,
    get: (path: string) => request(path),
    post: (path: string, body: unknown) =>
      request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    /** Starts a session; throws unless the server accepted it. */
    async start(body: Record<string, unknown>): Promise<string> {
      const r = await request('/api/sessions', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      if (r.status !== 202) throw new Error(`POST /api/sessions answered ${r.status}: ${r.text}`);
      return (r.json() as { id: string }).id;
    },
    /**
     * Reads a run's stream until `done` (or `stopAfter` events, then disconnects), from after `lastEventId`.
     * `onEvent` sees each event as it is read.
     */
    async events(
      id: string,
      read: { lastEventId?: number; stopAfter?: number; onEvent?: (event: ReadEvent) => void } = {},
    ): Promise<ReadEvent[]> {
      const controller = new AbortController();
      const response = await fetch(`${options.url}/api/sessions/${id}/events`, {
        headers: headers(read.lastEventId === undefined ? {} : { 'last-event-id': String(read.lastEventId) }),
        signal: controller.signal,
      });
      if (response.status !== 200 || response.body === null)
        throw new Error(`events of ${id} answered ${response.status}: ${await response.text()}`);
      const decoder = new TextDecoder();
      const events: ReadEvent[] = [];
      let buffer = '';
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = (await reader.read()) as { value: Uint8Array | undefined; done: boolean };
        if (done) return events;
        const parsed = parseEventStream(buffer + decoder.decode(value, { stream: true }));
        buffer = parsed.rest;
        for (const event of parsed.events) {
          events.push(event);
          read.onEvent?.(event);
          if (event.type === 'done' || events.length === read.stopAfter) {
            controller.abort();
            await reader.cancel().catch(() => undefined);
            return events;
          }
        }
      }
    },
  };
}
