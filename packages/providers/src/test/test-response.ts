/** Token counts a test server reports, in the vendor's own fields. */
export interface TestUsage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedTokens?: number;
  /** OpenRouter only: `usage.cost`. */
  costUsd?: number;
}

/** A successful answer, sent as JSON or, when the request asked to stream, as server-sent events. */
export interface TestTextResponse {
  kind: 'text';
  text: string;
  reasoning?: string;
  /** Vendor-neutral; each server writes its own spelling (`max_tokens`, `MAX_TOKENS`, …). Default `stop`. */
  finishReason?: 'stop' | 'length' | 'content-filter';
  usage?: TestUsage;
  id?: string;
  /** The model that answered; default the requested one. */
  model?: string;
  systemFingerprint?: string;
  headers?: Record<string, string>;
  /** Wait before answering. */
  delayMs?: number;
  /** Stream the text in pieces of this many characters. Default 4. */
  chunkSize?: number;
  /** Stream only: wait this long before each event after the first, so a client sees the text arrive over time. */
  chunkDelayMs?: number;
  /** Stream only: after the text, send this error event instead of finishing. */
  midStreamError?: { message: string; code?: number | string };
  /** Stream only: interleave SSE comment lines (OpenRouter's `: OPENROUTER PROCESSING`). */
  comments?: boolean;
}

/** An error in the vendor's error-body format. */
export interface TestErrorResponse {
  kind: 'error';
  status: number;
  message: string;
  /** The vendor's error type or code field (e.g. `overloaded_error`, `RESOURCE_EXHAUSTED`). */
  type?: string;
  headers?: Record<string, string>;
  /** OpenRouter style: send HTTP 200 with `{ error: { code: status, message } }` in the body. */
  inBody?: boolean;
}

/** Exactly these bytes (malformed JSON, an HTML error page, a hand-written vendor fixture). */
export interface TestRawResponse {
  kind: 'raw';
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

/** Status and headers (and `partial` body bytes), then nothing more: a response that never ends. */
export interface TestHangResponse {
  kind: 'hang';
  partial?: string;
  /** Send no status line at all. */
  beforeHeaders?: boolean;
}

/** The connection is destroyed before any response. */
export interface TestResetResponse {
  kind: 'reset';
}

/** Declares a longer body than it sends, sends `body`, then destroys the connection. */
export interface TestTruncatedResponse {
  kind: 'truncated';
  body: string;
}

/**
 * A well-formed answer of `bytes` bytes of text (JSON, or a stream of 64 KiB text events: rounded up to 64 KiB), written 64 KiB at a time
 * as the client reads it, so a test can see how much of it the client took (`TestServer.hugeBytesSent`).
 */
export interface TestHugeResponse {
  kind: 'huge';
  bytes: number;
  usage?: TestUsage;
}

/** What a test server does with one request. */
export type TestResponse =
  | TestTextResponse
  | TestErrorResponse
  | TestRawResponse
  | TestHangResponse
  | TestResetResponse
  | TestTruncatedResponse
  | TestHugeResponse;

/** One request a test server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** Whether the request asked for a stream. */
  stream: boolean;
  /** The model the request named. */
  model: string | undefined;
}
