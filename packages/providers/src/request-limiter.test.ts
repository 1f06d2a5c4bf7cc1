import { describe, expect, it } from 'vitest';
import { createFakeClock } from './test/create-fake-clock.js';
import { createRequestLimiter } from './request-limiter.js';

describe('createRequestLimiter', () => {
  it('never lets more than maxConcurrency run, and serves waiters in order', async () => {
    const limiter = createRequestLimiter({ maxConcurrency: 2, clock: createFakeClock() });
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const release = await limiter.acquire();
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        release();
      }),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limiter.inFlight).toBe(0);
  });

  it('drops a waiter whose signal aborts, without losing the slot', async () => {
    const limiter = createRequestLimiter({ maxConcurrency: 1, clock: createFakeClock() });
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(limiter.queued).toBe(0);
    release();
    release(); // a second release is ignored
    const again = await limiter.acquire();
    expect(limiter.inFlight).toBe(1);
    again();
  });

  it('calls onQueued only for an acquire that has to wait', async () => {
    const limiter = createRequestLimiter({ maxConcurrency: 1, clock: createFakeClock() });
    const queued: string[] = [];
    const first = await limiter.acquire(undefined, () => queued.push('first'));
    const second = limiter.acquire(undefined, () => queued.push('second'));
    expect(queued).toEqual(['second']);
    expect(limiter.queued).toBe(1);
    first();
    (await second)();
    expect(limiter.inFlight).toBe(0);
  });

  it('spaces request starts so no 60-second window holds more than requestsPerMinute', async () => {
    const clock = createFakeClock();
    const limiter = createRequestLimiter({ requestsPerMinute: 3, clock });
    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.awaitRequestStart();
      starts.push(clock.now() - Date.UTC(2026, 0, 1));
    }
    // Three at t=0, three more once the first window has passed, the seventh after the second.
    expect(starts).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
  });

  it('rejects nonsense limits', () => {
    expect(() => createRequestLimiter({ maxConcurrency: 0, clock: createFakeClock() })).toThrow(/maxConcurrency/);
    expect(() => createRequestLimiter({ requestsPerMinute: 0, clock: createFakeClock() })).toThrow(/requestsPerMinute/);
  });
});
