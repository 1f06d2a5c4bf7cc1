import { authHeaders, raiseForStatus } from './api.js';
import { SseParser } from './sse-parser.js';
import type { SseEvent } from './sse-parser.js';

export interface EventStreamOptions {
  url: string;
  onEvent: (event: SseEvent) => void;
  /** Called when the stream cannot be read (after the retries). */
  onError: (error: Error) => void;
  /** The event type after which the stream is over (no reconnect). */
  finalEvent: string;
  signal: AbortSignal;
  /** Reconnects after a dropped connection (default 5), waiting `retryMs` (default 500) between them. */
  retries?: number;
  retryMs?: number;
}

/**
 * Reads a server-sent event stream with fetch (EventSource cannot send the Authorization header),
 * reconnecting with Last-Event-ID after a dropped connection until `finalEvent` arrives.
 */
export async function readEventStream(options: EventStreamOptions): Promise<void> {
  const parser = new SseParser();
  let failures = 0;
  const retries = options.retries ?? 5;
  for (;;) {
    let finished = false;
    let lastError: Error | null = null;
    try {
      const headers: Record<string, string> = { ...authHeaders(), Accept: 'text/event-stream' };
      if (parser.lastEventId !== null) headers['Last-Event-ID'] = parser.lastEventId;
      const response = await fetch(options.url, { headers, signal: options.signal });
      await raiseForStatus(response);
      if (!response.body) throw new Error('The event stream has no body.');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(value)) {
          failures = 0;
          options.onEvent(event);
          if (event.event === options.finalEvent) finished = true;
        }
        if (finished) {
          await reader.cancel();
          break;
        }
      }
    } catch (error) {
      if (options.signal.aborted) return;
      // A refused request (4xx) will not get better by asking again.
      if (
        error instanceof Error &&
        'status' in error &&
        typeof error.status === 'number' &&
        error.status >= 400 &&
        error.status < 500
      ) {
        options.onError(error);
        return;
      }
      lastError = error instanceof Error ? error : new Error(String(error));
    }
    if (finished || options.signal.aborted) return;
    // The connection ended (or failed) before the final event: resume after the last event seen.
    if (++failures > retries) {
      options.onError(lastError ?? new Error('The event stream ended before the run finished.'));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 500));
  }
}
