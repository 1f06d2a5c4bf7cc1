import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { createRequestLimiter } from './request-limiter.js';
import type { RequestLimiter } from './request-limiter.js';
import { defaultRetryPolicy } from './retry-policy.js';
import type { RetryPolicy } from './retry-policy.js';
import type { StructuredOutputUnsupportedError } from './structured-output-unsupported-error.js';
import { omitUndefined } from './internal/omit-undefined.js';

/** Settings every HTTP provider accepts. */
export interface HttpProviderSettings {
  /** The API's base URL; each provider documents its default and environment variable. */
  baseURL?: string;
  /** The API key; when omitted it is read from the provider's variable in `env` at each request. */
  apiKey?: string;
  /**
   * Where the key and base-URL variables are read from at each request, e.g. the environment of the process, passed by the
   * application. This package never reads the process's environment itself; without `env` (and `apiKey`),
   * a hosted provider's call fails with `MISSING_API_KEY`.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation, e.g. to point tests at a local server or add a proxy. */
  fetch?: typeof fetch;
  /** Retries after the first attempt; 0 means none. Default 2. */
  maxRetries?: number;
  /** Backoff and Retry-After limits. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Default deadline of one call, all attempts included. Default 120,000 ms; a call's `timeoutMs` overrides it. */
  timeoutMs?: number;
  /**
   * Calls in flight at once for this provider instance; the others wait in order, their deadlines not yet
   * started. Default 16; 1 for the one-slot local servers (Ollama, LM Studio, llama.cpp).
   */
  maxConcurrency?: number;
  /** Request starts per minute for this provider instance (free tiers); default unlimited. */
  requestsPerMinute?: number;
  /** Time and randomness; tests pass a fake one. */
  clock?: Clock;
  /**
   * The most bytes one reply body may have (JSON or the whole stream); past it the call fails with
   * `ResponseTooLargeError` (not retried) and the rest is never read. Default 4 MiB (`defaultMaxResponseBytes`).
   */
  maxResponseBytes?: number;
}

/** The default `maxResponseBytes`: 4 MiB, some thousand pages of text, far past any answer a council needs. */
export const defaultMaxResponseBytes = 4 * 1024 * 1024;

/** What one provider instance shares across its models: policy, clock and the limiter. */
export interface ProviderRuntime {
  readonly fetch: typeof fetch | undefined;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly clock: Clock;
  readonly limiter: RequestLimiter;
  readonly maxResponseBytes: number;
  /**
   * Refusals of structured output, by base URL and model id (`structuredOutputKey`), kept for the life of the
   * process and shared by every provider instance (an application such as `council serve` makes new ones per
   * session): a later call with `responseFormat` to the same endpoint and model fails at once.
   */
  readonly structuredOutputRefusals: Map<string, StructuredOutputUnsupportedError>;
}

/** The process's remembered refusals of structured output (see `ProviderRuntime.structuredOutputRefusals`). */
const processStructuredOutputRefusals = new Map<string, StructuredOutputUnsupportedError>();

export function createProviderRuntime(settings: HttpProviderSettings): ProviderRuntime {
  const clock = settings.clock ?? systemClock;
  const maxRetries = settings.maxRetries ?? defaultRetryPolicy.maxRetries;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new RangeError(`maxRetries must be a whole number ≥ 0 (got ${maxRetries}).`);
  const maxResponseBytes = settings.maxResponseBytes ?? defaultMaxResponseBytes;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 1)
    throw new RangeError(`maxResponseBytes must be a whole number of bytes ≥ 1 (got ${maxResponseBytes}).`);
  return {
    fetch: settings.fetch,
    retry: { ...defaultRetryPolicy, ...settings.retry, maxRetries },
    timeoutMs: settings.timeoutMs ?? 120_000,
    clock,
    maxResponseBytes,
    structuredOutputRefusals: processStructuredOutputRefusals,
    limiter: createRequestLimiter({
      maxConcurrency: settings.maxConcurrency ?? 16,
      ...omitUndefined({ requestsPerMinute: settings.requestsPerMinute }),
      clock,
    }),
  };
}
