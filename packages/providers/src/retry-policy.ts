/** How a provider retries. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 means none. Default 2. */
  maxRetries: number;
  /** The first backoff ceiling; doubles each attempt. Default 500 ms. */
  initialDelayMs: number;
  /** The largest backoff ceiling. Default 20 s. */
  maxDelayMs: number;
  /** The longest `Retry-After` honoured; a longer ask fails the call with its RateLimitError. Default 60 s. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** HTTP statuses worth another attempt; 400, 401, 402, 403 and 404 never are. */
export const retryableStatuses: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** Full-jitter exponential backoff: uniform in [0, min(maxDelay, initial · 2^retry)). `retry` counts from 0. */
export function backoffDelayMs(options: { retry: number; policy: RetryPolicy; random: () => number }): number {
  const ceiling = Math.min(options.policy.maxDelayMs, options.policy.initialDelayMs * 2 ** options.retry);
  return Math.floor(options.random() * ceiling);
}
