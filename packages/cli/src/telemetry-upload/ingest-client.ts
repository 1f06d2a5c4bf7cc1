import { parseRetryAfter } from '@council/providers';
import ky from 'ky';
import { idempotencyKey } from './idempotency-key.js';
import { ingestErrorSchema, ingestResponseSchema, maxEventsPerBatch } from './ingest-contract.js';
import type { IngestRejection } from './ingest-contract.js';

/** What one POST of a batch came to. */
export type IngestOutcome =
  /**
   * 2xx: the batch is committed; `rejected` lists events council-cloud refused, with its reason.
   * `warning` is set when the answer's body could not be read (the refusals, if any, are unknown).
   */
  | { kind: 'accepted'; status: number; rejected: IngestRejection[]; warning?: string }
  /** 408, 429, 5xx, a network error or a timeout: send the same batch again later. */
  | { kind: 'retry'; status: number | null; reason: string; retryAfterMs: number | undefined }
  /** 400, 413 or 422: something in the batch is malformed or too large; splitting it isolates the bad events. */
  | { kind: 'bad-request'; status: number; reason: string }
  /**
   * Any other answer (a redirect, 404, 405, 410, another 4xx…): not about the events but about where
   * they were sent; nothing is committed or dead-lettered and the run stops.
   */
  | { kind: 'unexpected'; status: number; reason: string }
  /** 401 or 403: the token is missing, wrong or lacks permission. */
  | { kind: 'unauthorized'; status: number; reason: string };

export interface IngestClientOptions {
  /** `LLM_COUNCIL_CLOUD_URL`, e.g. `https://cloud.example.com`; events go to `${baseUrl}/v1/events`. */
  baseUrl: string;
  /** `LLM_COUNCIL_CLOUD_TOKEN`; sent only in the `Authorization` header. */
  token: string;
  /** The `User-Agent`, e.g. `council-telemetry/0.1.0 (node/20.20.0; linux)`. */
  userAgent: string;
  /** A request's whole time budget (connect, send, answer, body), in ms. Default 30 s. */
  timeoutMs?: number;
  /** The clock for `Retry-After` dates. */
  now?: () => number;
  fetch?: typeof fetch;
}

export interface IngestClient {
  /** Where batches go, without credentials, for messages. */
  readonly endpoint: string;
  send(events: readonly { event_id: string }[]): Promise<IngestOutcome>;
}

const maxReasonChars = 200;

/** The `ingest` API of council-cloud over ky: one POST per batch; the caller decides about retries. */
export function createIngestClient(options: IngestClientOptions): IngestClient {
  const url = new URL('v1/events', options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  url.username = '';
  url.password = '';
  const endpoint = url.toString();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const now = options.now ?? Date.now;
  const token = options.token;
  // Whatever a server or the network says is passed through this before it reaches a message.
  const clean = (text: string): string => text.split(token).join('[redacted]').replace(/\s+/g, ' ').trim().slice(0, maxReasonChars);

  const api = ky.create({
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    // A redirect is answered, never followed: following it would resend the batch and the token to another address.
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}`, 'user-agent': options.userAgent, accept: 'application/json' },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });

  async function send(events: readonly { event_id: string }[]): Promise<IngestOutcome> {
    if (events.length === 0 || events.length > maxEventsPerBatch) {
      throw new RangeError(`A batch holds 1 to ${maxEventsPerBatch} events, not ${events.length}.`);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await api.post(url, {
        json: { events },
        headers: { 'idempotency-key': idempotencyKey(events.map((e) => e.event_id)) },
        signal: controller.signal,
      });
      const text = await response.text();
      const status = response.status;
      if (status >= 200 && status < 300) {
        const body = safeJson(text);
        const parsed = ingestResponseSchema.safeParse(body ?? {});
        if (parsed.success) return { kind: 'accepted', status, rejected: (parsed.data.rejected ?? []).map((r) => ({ event_id: r.event_id, reason: clean(r.reason) })) };
        // Committed (a 2xx) but unreadable: the events count as taken, and the caller is told.
        return { kind: 'accepted', status, rejected: [], warning: `HTTP ${status} with a body that is not ${body === undefined ? 'JSON' : 'the documented { "rejected": [...] } answer'}; any events it refused are unknown` };
      }
      const reason = `HTTP ${status}${describeErrorBody(text, clean)}`;
      if (status === 401 || status === 403) return { kind: 'unauthorized', status, reason };
      if (status === 408 || status === 429 || status >= 500) {
        return { kind: 'retry', status, reason, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now()) };
      }
      if (status === 400 || status === 413 || status === 422) return { kind: 'bad-request', status, reason };
      const location = status >= 300 && status < 400 ? response.headers.get('location') : null;
      return { kind: 'unexpected', status, reason: location === null ? reason : `${reason} (a redirect to ${clean(location)})` };
    } catch (error) {
      if (timedOut) return { kind: 'retry', status: null, reason: `no answer within ${timeoutMs} ms (timeout)`, retryAfterMs: undefined };
      return { kind: 'retry', status: null, reason: describeNetworkError(error, clean), retryAfterMs: undefined };
    } finally {
      clearTimeout(timer);
    }
  }

  return { endpoint, send };
}

function safeJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeErrorBody(text: string, clean: (text: string) => string): string {
  const parsed = ingestErrorSchema.safeParse(safeJson(text));
  if (!parsed.success) return '';
  const message = typeof parsed.data.error === 'string' ? parsed.data.error : (parsed.data.error?.message ?? parsed.data.message);
  return message === undefined || message === null ? '' : `: ${clean(message)}`;
}

const networkCodes: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens there)',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved right now',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed before an answer came',
  UND_ERR_CLOSED: 'the connection closed before an answer came',
};

function describeNetworkError(error: unknown, clean: (text: string) => string): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return `${networkCodes[code] ?? 'a network error'} (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return `a network error (${clean(error instanceof Error ? error.message : String(error))})`;
}
