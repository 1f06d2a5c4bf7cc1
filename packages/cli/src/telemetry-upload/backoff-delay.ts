export interface BackoffOptions {
  /** 1 for the wait after the first failed attempt. */
  attempt: number;
  /** What the server asked for (`Retry-After`), in milliseconds. */
  retryAfterMs?: number | undefined;
  /** First wait before jitter; default 500 ms. */
  baseMs?: number;
  /** Longest computed wait; default 30 s. A longer `Retry-After` is still honoured. */
  maxMs?: number;
  /** A number in [0, 1); default `Math.random`. */
  random?: () => number;
}

/**
 * The wait before the next attempt: exponential backoff (base × 2^(attempt−1), capped) with "equal
 * jitter" (half fixed, half random), never shorter than what the server asked for in `Retry-After`.
 */
export function backoffDelay(options: BackoffOptions): number {
  const base = options.baseMs ?? 500;
  const max = options.maxMs ?? 30_000;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(max, base * 2 ** Math.max(0, options.attempt - 1));
  const computed = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.max(computed, options.retryAfterMs ?? 0));
}
