import { describe, expect, it } from 'vitest';
import { IdInterner } from './id-interner.js';

/** Looks up each name through its bytes inside a larger buffer, as the reader does. */
function lookUp(interner: IdInterner, names: readonly string[]): number[] {
  const line = Buffer.from(`{"x":"${names.join('","')}"}`, 'utf8');
  const out: number[] = [];
  let at = 6;
  for (const name of names) {
    const length = Buffer.byteLength(name);
    out.push(interner.ofBytes(line, at, at + length));
    at += length + 3;
  }
  return out;
}

describe('IdInterner.ofBytes', () => {
  it('numbers names in first-seen order when one interner serves two alternating columns (reviewer, author)', () => {
    const interner = new IdInterner(1000, 'members');
    // A reviewer over its five authors, then the next reviewer: reviewer, author, reviewer, author, …
    const rows = ['q/ada', 'q/ada', 'q/ada', 'q/basil', 'q/ada', 'q/cleo', 'q/basil', 'q/ada', 'q/basil', 'q/basil'];
    expect(lookUp(interner, rows)).toEqual([0, 0, 0, 1, 0, 2, 1, 0, 1, 1]);
    expect(interner.names).toEqual(['q/ada', 'q/basil', 'q/cleo']);
  });

  it('keeps the right index past 16 names, where the last two ids are remembered by a copy of their bytes', () => {
    const interner = new IdInterner(1000, 'sessions');
    const many = Array.from({ length: 20 }, (_, i) => `session-${i}`);
    expect(lookUp(interner, many)).toEqual(many.map((_, i) => i));
    // The 17th and later alternate with an earlier one: every answer is the name's first-seen index.
    expect(lookUp(interner, ['session-17', 'session-3', 'session-17', 'session-3', 'session-19'])).toEqual([
      17, 3, 17, 3, 19,
    ]);
  });

  it('finds a name longer than the remembered copy (256 bytes) by looking it up each time', () => {
    const interner = new IdInterner(1000, 'sessions');
    const names = Array.from({ length: 17 }, (_, i) => `s${i}`);
    const long = 'x'.repeat(300);
    expect(lookUp(interner, [...names, long, 's2', long, long])).toEqual([...names.map((_, i) => i), 17, 2, 17, 17]);
  });
});
