import { describe, expect, it } from 'vitest';
import { tokenCountBucket } from './token-count-bucket.js';

describe('tokenCountBucket', () => {
  // tokens = ceil(code points / 4); buckets [0,100) [100,500) [500,1000) [1000,5000) [5000,∞)
  it.each([
    [0, '0-100'],
    [396, '0-100'], // 99 tokens
    [397, '100-500'], // ceil(397/4) = 100
    [1996, '100-500'], // 499
    [1997, '500-1000'], // 500
    [3996, '500-1000'], // 999
    [3997, '1000-5000'], // 1000
    [19996, '1000-5000'], // 4999
    [19997, '5000+'], // 5000
  ] as const)('%i characters → %s', (chars, bucket) => {
    expect(tokenCountBucket('a'.repeat(chars))).toBe(bucket);
  });

  it('counts code points, not UTF-16 units', () => {
    // 396 emoji are 792 UTF-16 units but 396 code points: 99 tokens.
    expect(tokenCountBucket('😀'.repeat(396))).toBe('0-100');
  });
});
