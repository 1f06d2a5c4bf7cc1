import { describe, expect, it } from 'vitest';
import { fnv1a } from './fnv1a.js';

describe('fnv1a', () => {
  it("matches the published 32-bit FNV-1a vectors (Noll's test suite)", () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('hashes the UTF-8 bytes of a string, not its UTF-16 code units', () => {
    // "é" is U+00E9: the bytes C3 A9, the same as hashing "\xC3\xA9" byte by byte.
    expect(fnv1a('é')).toBe(Math.imul(Math.imul(0x811c9dc5 ^ 0xc3, 0x01000193) ^ 0xa9, 0x01000193) >>> 0);
    expect(fnv1a('council')).toBe(1521590252);
  });
});
