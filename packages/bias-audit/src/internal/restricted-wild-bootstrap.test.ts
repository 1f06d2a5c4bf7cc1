import { describe, expect, it } from 'vitest';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import { restrictedWildBootstrap } from './restricted-wild-bootstrap.js';
import type { SlopeData } from './restricted-wild-bootstrap.js';

/** Least squares of y on x with HC2 weights, written out independently of the code under test. */
function slopeData(x: readonly number[], y: readonly number[]): SlopeData {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  const d = Float64Array.from(x, (v) => v - mx);
  const sxx = d.reduce((a, b) => a + b * b, 0);
  const slope = d.reduce((a, v, i) => a + v * (y[i]! - my), 0) / sxx;
  const residuals = Float64Array.from(y, (v, i) => v - my - slope * d[i]!);
  const hc2Weights = Float64Array.from(d, (v) => (v * v) / (1 - 1 / n - (v * v) / sxx));
  const standardError = Math.sqrt(hc2Weights.reduce((a, w, i) => a + w * residuals[i]! ** 2, 0)) / sxx;
  return { d, residuals, slope, sxx, hc2Weights, standardError, level: 0.95 };
}

/** The exact restricted wild bootstrap p of β = 0: every one of the 2ⁿ sign patterns, by brute force. */
function exactPValueOfZero(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const observed = slopeData(x, y);
  const tObserved = Math.abs(observed.slope) / observed.standardError;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let beyond = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    const yStar = y.map((v, i) => ((mask >> i) & 1 ? 1 : -1) * (v - my));
    const star = slopeData(x, yStar);
    if (Math.abs(star.slope) / star.standardError >= tObserved - 1e-12) beyond++;
  }
  return beyond / 2 ** n;
}

describe('restrictedWildBootstrap', () => {
  const random = createSeededSfc32(11);
  const x = Array.from({ length: 12 }, () => 1 + random.normal() * 0.4);
  // Errors whose spread grows with the distance from the mean length, as the study's heterogeneous sessions have.
  const y = x.map((v) => 0.3 * v + (random.next() < 0.5 ? -1 : 1) * 0.5 * (v - 1) + 0.2 * random.normal());

  it('gives the p of 0 that enumerating all 2¹² sign patterns gives, to Monte Carlo error', () => {
    const exact = exactPValueOfZero(x, y);
    const { pValue } = restrictedWildBootstrap(slopeData(x, y));
    // 999 replicates: the binomial SE is at most √(0.25/999) ≈ 0.016; 4 SE.
    expect(Math.abs(pValue - exact)).toBeLessThan(0.064);
  });

  it('holds the slope and has p ≈ 1 − level at its ends (one test behind interval and p)', () => {
    const data = slopeData(x, y);
    const interval = restrictedWildBootstrap(data);
    expect(interval.lower).toBeLessThan(data.slope);
    expect(interval.upper).toBeGreaterThan(data.slope);
    // The interval excludes 0 exactly when the p of 0 is at most 0.05.
    expect(interval.lower > 0 || interval.upper < 0).toBe(interval.pValue <= 0.05);
    // Shifting y by β₀·x moves the slope and the interval by β₀ (the test is of β − β₀).
    const shifted = restrictedWildBootstrap(
      slopeData(
        x,
        y.map((v, i) => v + 2 * x[i]!),
      ),
    );
    expect(shifted.lower).toBeCloseTo(interval.lower + 2, 6);
    expect(shifted.upper).toBeCloseTo(interval.upper + 2, 6);
  });

  it('is the same on every run (fixed weights)', () => {
    expect(restrictedWildBootstrap(slopeData(x, y))).toEqual(restrictedWildBootstrap(slopeData(x, y)));
  });
});
