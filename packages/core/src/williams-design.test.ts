import { describe, expect, it } from 'vitest';
import { williamsDesign } from './williams-design.js';

function positionCounts(rows: number[][], n: number): number[][] {
  const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const row of rows) row.forEach((t, position) => counts[t]![position]!++);
  return counts;
}

function carryOverCounts(rows: number[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (let i = 1; i < row.length; i++) {
      const key = `${row[i - 1]}>${row[i]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

describe('williamsDesign', () => {
  it('builds the textbook square for n = 4', () => {
    // First row 0, 1, n−1, 2; each next row adds 1 mod 4.
    expect(williamsDesign(4)).toEqual([
      [0, 1, 3, 2],
      [1, 2, 0, 3],
      [2, 3, 1, 0],
      [3, 0, 2, 1],
    ]);
  });

  it('for odd n = 3 appends the mirrored rows', () => {
    expect(williamsDesign(3)).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
      [0, 2, 1],
      [1, 0, 2],
    ]);
  });

  for (const n of [2, 3, 4, 5, 6, 7, 8, 12]) {
    it(`is position- and carry-over balanced for n = ${n}`, () => {
      const rows = williamsDesign(n);
      const expectedRows = n % 2 === 0 ? n : 2 * n;
      expect(rows).toHaveLength(expectedRows);
      // Every row is a permutation.
      for (const row of rows) expect([...row].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      // Position balance over the first n rows: each treatment once per position.
      for (const perTreatment of positionCounts(rows.slice(0, n), n))
        expect(perTreatment).toEqual(new Array<number>(n).fill(1));
      // Carry-over: every ordered pair (a then b, a ≠ b) occurs equally often — n(n−1) pairs in total.
      const carry = carryOverCounts(rows);
      expect(carry.size).toBe(n * (n - 1));
      const expectedEach = (expectedRows * (n - 1)) / (n * (n - 1));
      for (const count of carry.values()) expect(count).toBe(expectedEach);
    });
  }

  it('returns no rows for a non-positive count', () => {
    expect(williamsDesign(0)).toEqual([]);
    expect(williamsDesign(1)).toEqual([[0]]);
  });
});
