import type { Clock } from './clock.js';

/** Limits one provider's calls: how many are in flight at once, and optionally how many start per minute. */
export interface RequestLimiter {
  /**
   * Waits for a free slot; the returned function releases it. Rejects when `signal` aborts while waiting.
   * `onQueued` is called (synchronously, once) only when no slot is free at once and the call must wait.
   */
  acquire(signal?: AbortSignal, onQueued?: () => void): Promise<() => void>;
  /** Waits until another request may start under the per-minute limit (each attempt counts). */
  awaitRequestStart(signal?: AbortSignal): Promise<void>;
  readonly inFlight: number;
  readonly queued: number;
}

export interface RequestLimiterOptions {
  /** Calls in flight at once; default unlimited. */
  maxConcurrency?: number;
  /** Request starts in any 60-second window; default unlimited. */
  requestsPerMinute?: number;
  clock: Clock;
}

export function createRequestLimiter(options: RequestLimiterOptions): RequestLimiter {
  const max = options.maxConcurrency ?? Number.POSITIVE_INFINITY;
  const rpm = options.requestsPerMinute;
  if (!(max >= 1)) throw new RangeError(`maxConcurrency must be at least 1 (got ${String(options.maxConcurrency)}).`);
  if (rpm !== undefined && !(rpm >= 1)) throw new RangeError(`requestsPerMinute must be at least 1 (got ${rpm}).`);
  let inFlight = 0;
  const waiters: Array<{ grant: () => void }> = [];
  const starts: number[] = [];
  let startChain: Promise<void> = Promise.resolve();

  const release = (): void => {
    const next = waiters.shift();
    if (next) next.grant();
    else inFlight--;
  };
  const once = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiters.length;
    },
    acquire(signal, onQueued) {
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      if (inFlight < max) {
        inFlight++;
        return Promise.resolve(once());
      }
      onQueued?.();
      return new Promise((resolve, reject) => {
        const waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(once());
          },
        };
        const onAbort = (): void => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal?.reason as Error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    awaitRequestStart(signal) {
      if (rpm === undefined) return Promise.resolve();
      // Starts are granted one after another, so each sees the window its predecessors left.
      const turn = startChain.then(async () => {
        for (;;) {
          const now = options.clock.now();
          while (starts.length > 0 && starts[0]! <= now - 60_000) starts.shift();
          if (starts.length < rpm) {
            starts.push(now);
            return;
          }
          await options.clock.sleep(starts[0]! + 60_000 - now, signal);
        }
      });
      startChain = turn.catch(() => undefined);
      return turn;
    },
  };
}
