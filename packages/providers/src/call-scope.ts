import type { Clock } from './clock.js';
import { TimeoutError } from './timeout-error.js';

/**
 * One call's lifetime: a single deadline that covers every attempt (and a stream to its end), and
 * one signal that aborts the request in flight when the deadline passes or the caller aborts.
 */
export interface CallScope {
  readonly signal: AbortSignal;
  readonly startedAt: number;
  readonly timeoutMs: number;
  remainingMs(): number;
  /** An abort caused by the deadline becomes a TimeoutError, one caused by the caller its reason. */
  translate(error: unknown): unknown;
  dispose(): void;
}

export function openCallScope(options: {
  timeoutMs: number;
  abortSignal: AbortSignal | undefined;
  clock: Clock;
  describe: string;
}): CallScope {
  const controller = new AbortController();
  const startedAt = options.clock.now();
  let timedOut = false;
  const timeoutError = (): TimeoutError =>
    new TimeoutError({
      timeoutMs: options.timeoutMs,
      message: `${options.describe} did not finish within ${options.timeoutMs} ms (all attempts included). Raise timeoutMs, or choose a faster model.`,
    });
  // setTimeout cannot wait longer than 2^31 − 1 ms (it would fire at once); a longer deadline is no deadline.
  const timer =
    options.timeoutMs <= 2_147_483_647
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(timeoutError());
        }, options.timeoutMs)
      : undefined;
  const onCallerAbort = (): void => controller.abort(options.abortSignal?.reason);
  if (options.abortSignal?.aborted) controller.abort(options.abortSignal.reason);
  else options.abortSignal?.addEventListener('abort', onCallerAbort, { once: true });

  return {
    signal: controller.signal,
    startedAt,
    timeoutMs: options.timeoutMs,
    remainingMs: () => startedAt + options.timeoutMs - options.clock.now(),
    translate(error) {
      if (!controller.signal.aborted) return error;
      if (timedOut) return controller.signal.reason as unknown;
      return (options.abortSignal?.reason as unknown) ?? error;
    },
    dispose() {
      clearTimeout(timer);
      options.abortSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
