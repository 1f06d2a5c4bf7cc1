import { describe, expect, it } from 'vitest';
import { readQuestion } from './read-question.js';

/** The usage error for `bytes` piped to `ask -`, or null when they were accepted. */
async function stdinError(bytes: number[]): Promise<string | null> {
  const io = { stdinIsTTY: false, readStdin: () => Promise.resolve(Buffer.from(bytes)) };
  try {
    await readQuestion({ question: '-', file: undefined, io, cwd: '/' });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const ascii = (text: string) => [...Buffer.from(text, 'latin1')];
const at = (offset: number) =>
  `The question on stdin is not UTF-8 text (invalid byte at offset ${offset}). Convert it, e.g. iconv -t UTF-8, and try again.`;

describe('readQuestion: invalid UTF-8 is named by the offset of its first bad sequence', () => {
  // Offsets counted by hand: each case is a run of ASCII, then the sequence TextDecoder refuses.
  it.each([
    ['a UTF-16 surrogate, U+D800 (ED A0 80)', [...ascii('ab'), 0xed, 0xa0, 0x80, ...ascii('z')], 2],
    ['an overlong 3-byte form of U+0000 (E0 80 80)', [...ascii('a'), 0xe0, 0x80, 0x80], 1],
    ['an overlong 4-byte form (F0 80 80 80)', [...ascii('xy'), 0xf0, 0x80, 0x80, 0x80], 2],
    ['a code point past U+10FFFF (F4 90 80 80)', [...ascii('abc'), 0xf4, 0x90, 0x80, 0x80], 3],
    [
      'a lead byte that never starts UTF-8 (C0) after é (C3 A9) and U+D7FF (ED 9F BF)',
      [0xc3, 0xa9, 0xed, 0x9f, 0xbf, 0xc0, 0x80],
      5,
    ],
    ['a sequence cut short by the end (E2 82)', [...ascii('ok'), 0xe2, 0x82], 2],
    ['a Latin-1 é (E9) before ASCII', [...ascii('caf'), 0xe9, ...ascii('?')], 3],
  ])('%s', async (_name, bytes, offset) => {
    expect(await stdinError(bytes)).toBe(at(offset));
  });

  it('accepts the edges that are valid: U+D7FF, U+E000, U+10FFFF, U+0800, U+10000', async () => {
    const edges = [
      0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80, 0xf4, 0x8f, 0xbf, 0xbf, 0xe0, 0xa0, 0x80, 0xf0, 0x90, 0x80, 0x80,
    ];
    expect(await stdinError([...ascii('q '), ...edges])).toBeNull();
  });
});
