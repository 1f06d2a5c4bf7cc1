import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff-delay.js';

describe('backoffDelay', () => {
  it('doubles from the base with half of each wait random', () => {
    // attempt n: ceiling = 500 × 2^(n−1); wait = ceiling/2 + random × ceiling/2
    expect(backoffDelay({ attempt: 1, random: () => 0 })).toBe(250);
    expect(backoffDelay({ attempt: 1, random: () => 0.5 })).toBe(375);
    expect(backoffDelay({ attempt: 3, random: () => 0 })).toBe(1000);
    expect(backoffDelay({ attempt: 3, random: () => 0.5 })).toBe(1500);
  });

  it('caps the computed wait at maxMs', () => {
    // attempt 10: 500 × 512 = 256 000 > 30 000 → ceiling 30 000
    expect(backoffDelay({ attempt: 10, random: () => 0 })).toBe(15_000);
    expect(backoffDelay({ attempt: 10, maxMs: 4000, random: () => 0.5 })).toBe(3000);
  });

  it('never waits less than Retry-After asks, even past the cap', () => {
    expect(backoffDelay({ attempt: 1, retryAfterMs: 2000, random: () => 0 })).toBe(2000);
    expect(backoffDelay({ attempt: 1, retryAfterMs: 120_000, random: () => 0 })).toBe(120_000);
    // a Retry-After shorter than the backoff does not shorten it
    expect(backoffDelay({ attempt: 3, retryAfterMs: 100, random: () => 0 })).toBe(1000);
  });
});
