import { describe, expect, expectTypeOf, it } from 'vitest';
import { omitUndefined } from './omit-undefined.js';

describe('omitUndefined', () => {
  it('drops exactly the keys whose value is undefined', () => {
    const result = omitUndefined({ a: 1, b: undefined, c: 'x', d: undefined });
    expect(result).toStrictEqual({ a: 1, c: 'x' });
    expect(Object.keys(result)).toEqual(['a', 'c']);
    expect('b' in result).toBe(false);
  });

  it('keeps null, zero, the empty string, false and NaN', () => {
    const result = omitUndefined({ n: null, z: 0, s: '', f: false, nan: Number.NaN });
    expect(Object.keys(result)).toEqual(['n', 'z', 's', 'f', 'nan']);
    expect(result).toStrictEqual({ n: null, z: 0, s: '', f: false, nan: Number.NaN });
  });

  it('gives an empty object when every value is undefined, and a copy otherwise', () => {
    expect(omitUndefined({ a: undefined, b: undefined })).toStrictEqual({});
    const input = { a: 1 };
    const result = omitUndefined(input);
    expect(result).toStrictEqual({ a: 1 });
    expect(result).not.toBe(input);
  });

  it('keeps the order of the keys, so a spread puts them where the one-key spreads did', () => {
    const now = (): number => 0;
    expect(Object.keys({ first: 1, ...omitUndefined({ b: 2, a: undefined, c: now }), last: 3 })).toEqual([
      'first',
      'b',
      'c',
      'last',
    ]);
  });

  it('leaves an earlier value in place when spread after it with the key undefined', () => {
    const defaults = { retries: 2, seed: 'base' };
    const retries: number | undefined = undefined;
    expect({ ...defaults, ...omitUndefined({ retries, seed: 'given' }) }).toStrictEqual({ retries: 2, seed: 'given' });
  });

  it('makes the keys that may be undefined optional, and leaves the others required', () => {
    const maybe = 1 as number | undefined;
    const result = omitUndefined({ always: 'x', maybe });
    expectTypeOf(result).toEqualTypeOf<{ always: string } & { maybe?: number }>();
  });
});
