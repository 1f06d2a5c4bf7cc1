import ky from 'ky';
import { APICallError } from './api-call-error.js';
import type { CallScope } from './call-scope.js';
import { readLimitedText } from './read-limited-body.js';
import { readRetryAfter } from './read-retry-after.js';
import { ProviderError } from './provider-error.js';
import type { ProviderRuntime } from './provider-runtime.js';
import { backoffDelayMs } from './retry-policy.js';
import { scrubSecrets } from './scrub-secrets.js';
import { takeUrlCredentials } from './url-credentials.js';

/** A non-2xx response, as `mapError` sees it. */
export interface HttpFailure {
  statusCode: number;
  /** The raw body; the mapper must redact and truncate what it keeps. */
  bodyText: string;
  headers: Headers;
  retryAfterMs: number | undefined;
}

export interface SendRequestOptions<T> {
  runtime: ProviderRuntime;
  scope: CallScope;
  provider: string;
  modelId: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Builds the typed error for a non-2xx response. */
  mapError: (failure: HttpFailure) => APICallError;
  /** Reads a 2xx response. A retryable APICallError it throws (an error in a 200 body) is retried. */
  read: (response: Response) => Promise<T>;
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message);
    current = current.cause;
  }
  return parts.join(': ') || String(error);
}

/** Whether a network failure (or one of its causes) is a refused connection. */
function refused(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    current = current.cause;
  }
  return false;
}

/** A failure below HTTP (refused, reset, cut-off body) as a retryable APICallError. */
function networkError(options: { error: unknown; provider: string; modelId: string; url: string }): APICallError {
  let where: string;
  try {
    where = new URL(options.url).origin;
  } catch {
    where = scrubSecrets(options.url);
  }
  return new APICallError({
    provider: options.provider,
    modelId: options.modelId,
    url: options.url,
    isRetryable: true,
    cause: options.error,
    message: refused(options.error)
      ? // Nothing listens there: no deadline or retry helps, only a running server (or the right address).
        `The connection to ${options.provider} at ${where} was refused while calling ${options.modelId}: nothing is listening there. Start the server (a local one such as ollama must be running) or correct its address, then retry.`
      : `The connection to ${options.provider} at ${where} failed while calling ${options.modelId}: ${describeCause(options.error)}. Check that the server is reachable (a local server must be running), then retry.`,
  });
}

/**
 * The URL and headers to send: a base URL's user-info (`https://user:password@proxy/v1`, which fetch refuses) becomes
 * `Authorization: Basic`, unless the provider sends its key in that header already: one request cannot carry both,
 * and dropping either credential unsaid would only turn into a puzzling 401.
 */
function withUrlCredentials(options: { url: string; headers: Record<string, string>; provider: string }): {
  url: string;
  headers: Record<string, string>;
} {
  const taken = takeUrlCredentials(options.url);
  if (taken.basicAuthorization === undefined) return { url: options.url, headers: options.headers };
  if (Object.keys(options.headers).some((name) => name.toLowerCase() === 'authorization')) {
    throw new ProviderError({
      code: 'INVALID_SETTINGS',
      message:
        `The base URL of ${options.provider} (${scrubSecrets(options.url)}) holds a user name and password, which would be sent as HTTP Basic ` +
        `authentication, but ${options.provider} sends its API key in the Authorization header and a request has one. ` +
        'Remove the user name and password from the base URL (a proxy in front of the server must then accept the key).',
    });
  }
  return { url: taken.url, headers: { ...options.headers, authorization: taken.basicAuthorization } };
}

/**
 * POSTs JSON through ky and retries: full-jitter exponential backoff, `Retry-After` honoured up to
 * `maxRetryAfterMs`, only retryable statuses and network failures, never past the call's deadline.
 */
export async function sendRequest<T>(options: SendRequestOptions<T>): Promise<T> {
  const { runtime, scope } = options;
  const { url, headers } = withUrlCredentials(options);
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    let retryAfterMs: number | undefined;
    try {
      await runtime.limiter.awaitRequestStart(scope.signal);
      const response = await ky.post(url, {
        json: options.body,
        headers,
        signal: scope.signal,
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
      });
      if (!response.ok) {
        // An error body is only ever kept as an excerpt: read no more of it than a reply may have.
        const bodyText = await readLimitedText(response, {
          provider: options.provider,
          modelId: options.modelId,
          limitBytes: runtime.maxResponseBytes,
          overflow: 'truncate',
        });
        retryAfterMs = readRetryAfter(response.headers, runtime.clock.now());
        throw options.mapError({ statusCode: response.status, bodyText, headers: response.headers, retryAfterMs });
      }
      return await options.read(response);
    } catch (error) {
      if (scope.signal.aborted) throw scope.translate(error);
      failure = ProviderError.isInstance(error)
        ? error
        : networkError({ error, provider: options.provider, modelId: options.modelId, url: options.url });
    }
    if (!APICallError.isInstance(failure) || !failure.isRetryable || attempt >= runtime.retry.maxRetries) throw failure;
    const delay =
      retryAfterMs !== undefined
        ? Math.min(retryAfterMs, runtime.retry.maxRetryAfterMs)
        : backoffDelayMs({ retry: attempt, policy: runtime.retry, random: () => runtime.clock.random() });
    // Waiting past the deadline would only turn a clear error into a timeout.
    if (delay >= scope.remainingMs()) throw failure;
    try {
      await runtime.clock.sleep(delay, scope.signal);
    } catch (error) {
      throw scope.translate(error);
    }
  }
}
