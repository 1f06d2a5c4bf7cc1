import { parseRetryAfter } from '@council/providers';
import ky from 'ky';
import { omitUndefined } from '../omit-undefined.js';
import { ingestErrorSchema, ingestResponseSchema, maxEventsPerBatch } from './ingest-contract.js';
import type { IngestRejection } from './ingest-contract.js';

/** What one POST of a batch came to. */
export type IngestOutcome =
  /**
   * 2xx: the batch is committed; `rejected` lists events council-cloud refused, with its reason; `duplicates`
   * the events it already held (by `event_id`) and did not store again. `warning` is set when the answer's body
   * could not be read (the refusals, if any, are unknown).
   */
  | { kind: 'accepted'; status: number; rejected: IngestRejection[]; duplicates: string[]; warning?: string }
  /** A 4xx whose body is council-cloud's error answer naming events of the batch: those are refused, nothing was stored. */
  | { kind: 'refused'; status: number; rejected: IngestRejection[]; reason: string }
  /**
   * 408, 429, 5xx, a network error or a timeout — and any 4xx that names no event of the batch (a proxy's page, a
   * message about the request as a whole): send the same events again later. `client` marks a 4xx.
   */
  | { kind: 'retry'; status: number | null; reason: string; retryAfterMs: number | undefined; client?: boolean }
  /** 413 naming no event: the request is too large for something on the way; smaller batches may pass. */
  | { kind: 'too-large'; status: number; reason: string; retryAfterMs: number | undefined }
  /**
   * A redirect, 404, 405 or 410: not about the events but about where they were sent; nothing is committed or
   * dead-lettered and the run stops.
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
  const clean = (text: string): string =>
    text.split(token).join('[redacted]').replace(/\s+/g, ' ').trim().slice(0, maxReasonChars);

  const api = ky.create({
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    // A redirect is answered, never followed: following it would resend the batch and the token to another address.
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}`, 'user-agent': options.userAgent, accept: 'application/json' },
    ...omitUndefined({ fetch: options.fetch }),
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
      // No batch-wide idempotency key: each event's event_id is its own (see ingest-contract.ts).
      const response = await api.post(url, { json: { events }, signal: controller.signal });
      const text = await response.text();
      const status = response.status;
      if (status >= 200 && status < 300) {
        const body = safeJson(text);
        const parsed = ingestResponseSchema.safeParse(body ?? {});
        if (parsed.success) {
          return {
            kind: 'accepted',
            status,
            rejected: (parsed.data.rejected ?? []).map((r) => ({ event_id: r.event_id, reason: clean(r.reason) })),
            duplicates: parsed.data.duplicates ?? [],
          };
        }
        // Committed (a 2xx) but unreadable: the events count as taken, and the caller is told.
        return {
          kind: 'accepted',
          status,
          rejected: [],
          duplicates: [],
          warning: `HTTP ${status} with a body that is not ${body === undefined ? 'JSON' : 'the documented { "rejected": [...] } answer'}; any events it refused are unknown`,
        };
      }
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
      if (status === 401 || status === 403)
        return { kind: 'unauthorized', status, reason: `HTTP ${status}${describeErrorBody(text, clean)}` };
      if (status === 408 || status === 429)
        return { kind: 'retry', status, reason: `HTTP ${status}${describeErrorBody(text, clean)}`, retryAfterMs };
      if (status >= 400 && status < 500) {
        const batch = new Set(events.map((e) => e.event_id));
        const refusal = readRefusal(text, batch, clean);
        if (refusal !== null)
          return { kind: 'refused', status, rejected: refusal.rejected, reason: `HTTP ${status}${refusal.message}` };
      }
      const reason = `HTTP ${status}${describeErrorBody(text, clean)}`;
      if (status === 404 || status === 405 || status === 410 || (status >= 300 && status < 400)) {
        const location = status >= 300 && status < 400 ? response.headers.get('location') : null;
        return {
          kind: 'unexpected',
          status,
          reason: location === null ? reason : `${reason} (a redirect to ${clean(location)})`,
        };
      }
      if (status >= 400 && status < 500) {
        const why = `${reason} ${describeNonRefusal(text, response.headers.get('content-type'))}`;
        if (status === 413) return { kind: 'too-large', status, reason: why, retryAfterMs };
        return { kind: 'retry', status, reason: why, retryAfterMs, client: true };
      }
      if (status >= 500 && status < 600) return { kind: 'retry', status, reason, retryAfterMs };
      // A status outside 200-599: nothing an ingest API answers.
      return { kind: 'unexpected', status, reason };
    } catch (error) {
      if (timedOut)
        return {
          kind: 'retry',
          status: null,
          reason: `no answer within ${timeoutMs} ms (timeout)`,
          retryAfterMs: undefined,
        };
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

/**
 * council-cloud's own refusal: a body that fits the error schema and names, in `rejected`, at least one event of
 * the batch (names of other events are ignored); null for anything else.
 */
function readRefusal(
  text: string,
  batch: ReadonlySet<string>,
  clean: (text: string) => string,
): { rejected: IngestRejection[]; message: string } | null {
  const parsed = ingestErrorSchema.safeParse(safeJson(text));
  if (!parsed.success) return null;
  const seen = new Set<string>();
  const rejected: IngestRejection[] = [];
  for (const r of parsed.data.rejected ?? []) {
    if (!batch.has(r.event_id) || seen.has(r.event_id)) continue;
    seen.add(r.event_id);
    rejected.push({ event_id: r.event_id, reason: clean(r.reason) });
  }
  return rejected.length === 0 ? null : { rejected, message: describeErrorBody(text, clean) };
}

/** Why a 4xx is not taken as a refusal of events, for the message: what the body was. Never quotes a page. */
function describeNonRefusal(text: string, contentType: string | null): string {
  const body = safeJson(text);
  if (body !== undefined && ingestErrorSchema.safeParse(body).success)
    return '(council-cloud named no event of the batch, so none is refused)';
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const what =
    text.trim() === ''
      ? 'an empty body'
      : type === 'text/html' || /^\s*</.test(text)
        ? 'an HTML page'
        : type === ''
          ? 'a body that is not JSON'
          : `a ${type} body`;
  return `(${what}, not council-cloud's answer: a proxy or gateway on the way may have sent it)`;
}

function describeErrorBody(text: string, clean: (text: string) => string): string {
  const parsed = ingestErrorSchema.safeParse(safeJson(text));
  if (!parsed.success) return '';
  const message =
    typeof parsed.data.error === 'string' ? parsed.data.error : (parsed.data.error?.message ?? parsed.data.message);
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
