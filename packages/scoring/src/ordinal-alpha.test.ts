import { describe, expect, it } from 'vitest';
import { ordinalAlpha } from './ordinal-alpha.js';

describe('ordinalAlpha', () => {
  it("reproduces Krippendorff's published example: ordinal α = 0.815", () => {
    // Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), section C: 4 observers, 12 units,
    // values 1–5, missing cells ".". Published results: nominal .743, ordinal .815, interval .849.
    const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null];
    const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3];
    const C = [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null];
    const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null];
    const units = A.map((_, u) =>
      [A, B, C, D].map((observer) => observer[u]).filter((v): v is number => v !== null && v !== undefined),
    );
    const result = ordinalAlpha(units);
    expect(result.alpha).toBeCloseTo(0.815, 3);
    // Unit 12 has a single value and is not pairable: 11 units, n = 40 pairable values (the paper's n..).
    expect(result.pairableUnits).toBe(11);
    expect(result.pairableValues).toBe(40);
  });

  it('is 1 for perfect agreement and null when undefined (no variation or nothing pairable)', () => {
    expect(
      ordinalAlpha([
        [1, 1],
        [2, 2],
        [3, 3, 3],
      ]).alpha,
    ).toBe(1);
    expect(
      ordinalAlpha([
        [2, 2],
        [2, 2],
      ]).alpha,
    ).toBeNull();
    expect(ordinalAlpha([[1], [2]]).alpha).toBeNull();
  });

  it('hand-worked: two coders, two units, values swapped → α = 1 − (n − 1)·Σoδ² / Σ n_c n_k δ² = −0.5', () => {
    // Units (1, 2) and (2, 1): o_12 = o_21 = 2, o_11 = o_22 = 0; n_1 = n_2 = 2, n = 4.
    // Ordinal δ²_12 = (n_1 + n_2 − (n_1 + n_2)/2)² = (4 − 2)² = 4.
    // Σ o δ² = 2·4 + 2·4 = 16; Σ n_c n_k δ² = 2·2·4 + 2·2·4 = 32; α = 1 − 3 · 16/32 = −0.5.
    expect(
      ordinalAlpha([
        [1, 2],
        [2, 1],
      ]).alpha,
    ).toBeCloseTo(-0.5, 12);
  });
});
