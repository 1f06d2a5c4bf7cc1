import type { Clock } from '../clock.js';

/** A clock whose sleeps return at once and advance its time; records every sleep. */
export interface FakeClock extends Clock {
  /** The duration of every sleep, in order. */
  readonly sleeps: number[];
  /** Moves time forward without sleeping. */
  advance(ms: number): void;
}

/** A fake clock for retry and rate-limit tests: `random` returns `random` (default 0.5). */
export function createFakeClock(options: { startMs?: number; random?: () => number } = {}): FakeClock {
  let now = options.startMs ?? Date.UTC(2026, 0, 1);
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    random: options.random ?? (() => 0.5),
    advance(ms) {
      now += ms;
    },
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      sleeps.push(ms);
      now += Math.max(0, ms);
      return Promise.resolve();
    },
  };
}
