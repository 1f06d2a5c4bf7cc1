import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RecordKeySet } from './record-key-set.js';

const key = (i: number): string => createHash('sha256').update(`record ${i}`).digest('hex');

// 100,000 keys through the table's growths: seconds on a loaded machine, past vitest's 5 s default.
describe('RecordKeySet', { timeout: 60_000 }, () => {
  it('tells a key met before from a new one, through many growths of its table', () => {
    const set = new RecordKeySet();
    for (let i = 0; i < 100_000; i++) expect(set.add(key(i))).toBe(true);
    expect(set.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 7) expect(set.add(key(i))).toBe(false);
    expect(set.add(key(100_000))).toBe(true);
    expect(set.size).toBe(100_001);
  });

  it('compares the first 96 bits (24 hex digits) only, and keeps an all-zero key', () => {
    const set = new RecordKeySet();
    const zero = '0'.repeat(64);
    expect(set.add(zero)).toBe(true);
    expect(set.add(zero)).toBe(false);
    expect(set.add(`${'0'.repeat(23)}1${'0'.repeat(40)}`)).toBe(true);
    expect(set.add(`${'0'.repeat(24)}${'f'.repeat(40)}`)).toBe(false);
  });
});
