import { describe, expect, it } from 'vitest';
import { idempotencyKey } from './idempotency-key.js';

describe('idempotencyKey', () => {
  it('is the SHA-256 of the ids joined by newlines', () => {
    // FIPS 180-2 test vector: SHA-256("abc")
    expect(idempotencyKey(['abc'])).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('is the same for the same batch and differs for another order or another event', () => {
    expect(idempotencyKey(['a', 'b'])).toBe(idempotencyKey(['a', 'b']));
    expect(idempotencyKey(['a', 'b'])).not.toBe(idempotencyKey(['b', 'a']));
    expect(idempotencyKey(['a', 'b'])).not.toBe(idempotencyKey(['a', 'c']));
    // the separator keeps ["ab"] and ["a", "b"] apart
    expect(idempotencyKey(['ab'])).not.toBe(idempotencyKey(['a', 'b']));
  });
});
