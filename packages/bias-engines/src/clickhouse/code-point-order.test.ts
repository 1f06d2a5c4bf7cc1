import { describe, expect, it } from 'vitest';
import { byCodePoints } from './code-point-order.js';

describe('byCodePoints', () => {
  it("orders strings as their UTF-8 bytes compare (ClickHouse's order), not as JS does", () => {
    const strings = [
      '',
      'a',
      'ab',
      'b',
      'Z',
      '\u007f',
      '\u0080',
      '\u07ff',
      '\u0800',
      '\ud7ff',
      '\ue000',
      '\uffff',
      '\u{10000}',
      '\u{1f600}',
      '\u{10ffff}',
      'a\uffff',
      'a\u{1f600}',
      'a\ue000b',
      'a\u{1f600}b',
    ];
    const byUtf8 = [...strings].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
    expect([...strings].reverse().sort(byCodePoints)).toEqual(byUtf8);
    // Where the orders differ: U+1F600 (surrogates 0xD83D 0xDE00) comes before U+E000 in JS, after it in UTF-8.
    expect('\u{1f600}' < '\ue000').toBe(true);
    expect(byCodePoints('\u{1f600}', '\ue000')).toBeGreaterThan(0);
    expect(byCodePoints('a\u{1f600}b', 'a\uffff')).toBeGreaterThan(0);
    expect(byCodePoints('ab', 'ab')).toBe(0);
  });
});
