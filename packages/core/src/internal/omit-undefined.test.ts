import { describe, expect, it } from 'vitest';
import { omitUndefined } from './omit-undefined.js';

describe('omitUndefined', () => {
  it('drops exactly the keys whose value is undefined, keeping the others in order', () => {
    const out = omitUndefined({ a: 1, b: undefined, c: null, d: 0, e: '', f: false, g: undefined, h: 'x' });
    expect(Object.keys(out)).toEqual(['a', 'c', 'd', 'e', 'f', 'h']);
    expect(out).toStrictEqual({ a: 1, c: null, d: 0, e: '', f: false, h: 'x' });
    expect('b' in out).toBe(false);
  });

  it('gives an empty object when every value is undefined, and never changes its argument', () => {
    const given = { seed: undefined as number | undefined, temperature: undefined as number | undefined };
    const out = omitUndefined(given);
    expect(Object.keys(out)).toEqual([]);
    expect(out).not.toBe(given);
    expect(Object.keys(given)).toEqual(['seed', 'temperature']);
  });
});
