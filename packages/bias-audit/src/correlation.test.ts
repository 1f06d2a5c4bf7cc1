import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import referenceJson from '../__fixtures__/scipy-reference.json';
import { BiasAuditError } from './bias-audit-error.js';
import { fisherZ, inverseFisherZ } from './fisher-z.js';
import { relativeError } from './internal/relative-error.js';
import { pearson } from './pearson.js';
import { spearman } from './spearman.js';

interface Reference {
  source: string;
  pearson: { x: number[]; y: number[]; r: number; pValue: number; ci95: [number, number] | null }[];
  spearman: { x: number[]; y: number[]; rho: number; pValue: number }[];
}
const reference = referenceJson as Reference;

describe('pearson', () => {
  it(`matches scipy.stats.pearsonr (${reference.source}): r, exact p and the Fisher-z interval to 1e-10`, () => {
    for (const c of reference.pearson) {
      const result = pearson(c.x, c.y);
      if (!result.computable) throw new Error(result.reason);
      expect(relativeError(result.r, c.r)).toBeLessThan(1e-10);
      expect(relativeError(result.pValue, c.pValue)).toBeLessThan(1e-10);
      if (c.ci95 === null) expect(result.ci95).toBeNull();
      else {
        expect(relativeError(result.ci95!.lower, c.ci95[0])).toBeLessThan(1e-10);
        expect(relativeError(result.ci95!.upper, c.ci95[1])).toBeLessThan(1e-10);
      }
    }
  });

  it('works a small case by hand: x = 1..5, y = 2,1,4,3,5 gives r = 0.8 and p = 0.104 (not 0.021)', () => {
    // x̄ = 3, ȳ = 3; Σdx·dy = (−2)(−1)+(−1)(−2)+0+1·0+2·2 = 8; Σdx² = Σdy² = 10; r = 8/10 = 0.8.
    const result = pearson([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]);
    expect(result.computable).toBe(true);
    if (!result.computable) return;
    expect(result.r).toBeCloseTo(0.8, 12);
    expect(result.n).toBe(5);
    expect(result.pValue).toBeCloseTo(0.104088, 6);
    // Fisher 95%: z = atanh 0.8 = 1.098612, half-width 1.959964/√2 = 1.385904.
    // Lower: tanh(−0.287292) = −(x − x³/3 + 2x⁵/15 − 17x⁷/315) = −(0.287292 − 0.007904 + 0.000261 − 0.000009) = −0.279640.
    // Upper: tanh(2.484516) = (e^4.969032 − 1)/(e^4.969032 + 1) = 142.8876/144.8876 = 0.986196.
    expect(result.ci95!.lower).toBeCloseTo(-0.27964, 5);
    expect(result.ci95!.upper).toBeCloseTo(0.986196, 5);
  });

  it('agrees with the published critical values of r (two-sided α = 0.05): n = 5 → 0.878, n = 10 → 0.632, n = 30 → 0.361', () => {
    // Table of critical values of the Pearson correlation coefficient (e.g. Fisher & Yates Table VII, df = n − 2).
    for (const [n, critical] of [
      [5, 0.878],
      [10, 0.632],
      [30, 0.361],
    ] as const) {
      // Build data with exactly r = critical: y = r·x + √(1 − r²)·w with x ⟂ w, both centred, equal norms.
      const x = Array.from({ length: n }, (_, i) => i - (n - 1) / 2);
      const w0 = x.map((v) => v * v);
      const mw = w0.reduce((s, v) => s + v, 0) / n;
      const w1 = w0.map((v) => v - mw);
      const scale = Math.sqrt(x.reduce((s, v) => s + v * v, 0) / w1.reduce((s, v) => s + v * v, 0));
      const y = x.map((v, i) => critical * v + Math.sqrt(1 - critical * critical) * w1[i]! * scale);
      const result = pearson(x, y);
      if (!result.computable) throw new Error(result.reason);
      expect(result.r).toBeCloseTo(critical, 10);
      expect(result.pValue).toBeCloseTo(0.05, 3);
    }
  });

  it('reports too few pairs and constant variables as not computable, never r = 0, p = 1', () => {
    expect(pearson([1, 2], [3, 4])).toEqual({
      computable: false,
      n: 2,
      reason: expect.stringContaining('at least 3') as string,
    });
    const flat = pearson([1, 2, 3], [4, 4, 4]);
    expect(flat.computable).toBe(false);
    if (!flat.computable) expect(flat.reason).toMatch(/y has no variance/);
  });

  it('handles a perfect correlation: p = 0 and a degenerate interval, no NaN', () => {
    const result = pearson([1, 2, 3, 4, 5], [3, 5, 7, 9, 11]);
    expect(result).toMatchObject({ computable: true, r: 1, pValue: 0, ci95: { lower: 1, upper: 1 } });
  });

  it('rejects unpaired or non-finite input with a BiasAuditError', () => {
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(BiasAuditError);
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(/x has 3 values and y has 2/);
    expect(() => pearson([1, Number.NaN, 3], [1, 2, 3])).toThrow(/Pair 1/);
  });

  it('is invariant to affine rescaling and symmetric in its arguments; p lies in [0, 1] (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 })), {
          minLength: 3,
          maxLength: 40,
        }),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        (pairs, scale) => {
          const x = pairs.map((p) => p[0]);
          const y = pairs.map((p) => p[1]);
          const a = pearson(x, y);
          const b = pearson(
            y,
            x.map((v) => v * scale + 7),
          );
          expect(a.computable).toBe(b.computable);
          if (a.computable && b.computable) {
            expect(a.r).toBeCloseTo(b.r, 9);
            expect(a.pValue).toBeGreaterThanOrEqual(0);
            expect(a.pValue).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  }, 30_000);
});

describe('spearman', () => {
  it(`matches scipy.stats.spearmanr with ties (${reference.source})`, () => {
    for (const c of reference.spearman) {
      const result = spearman(c.x, c.y);
      if (!result.computable) throw new Error(result.reason);
      expect(relativeError(result.r, c.rho)).toBeLessThan(1e-10);
      expect(relativeError(result.pValue, c.pValue)).toBeLessThan(1e-10);
    }
  });

  it('works a tied case by hand: x = 1,2,2,3 and y = 1,3,2,4 → ranks 1,2.5,2.5,4 and 1,3,2,4 → ρ = 0.9487', () => {
    // dx = −1.5, 0, 0, 1.5; dy = −1.5, 0.5, −0.5, 1.5; Σdx·dy = 4.5; Σdx² = 4.5; Σdy² = 5; ρ = 4.5/√22.5 = 0.948683.
    const result = spearman([1, 2, 2, 3], [1, 3, 2, 4]);
    expect(result.computable && result.r).toBeCloseTo(0.948683, 6);
  });
});

describe('fisherZ', () => {
  it('is atanh: fisherZ(0.5) = ½·ln 3 = 0.549306, and inverseFisherZ undoes it', () => {
    expect(fisherZ(0.5)).toBeCloseTo(0.5493061443, 10);
    expect(inverseFisherZ(fisherZ(-0.73))).toBeCloseTo(-0.73, 14);
    expect(fisherZ(1)).toBe(Number.POSITIVE_INFINITY);
    expect(inverseFisherZ(Number.NEGATIVE_INFINITY)).toBe(-1);
    expect(() => fisherZ(1.2)).toThrow(/\[−1, 1\]/);
  });
});
