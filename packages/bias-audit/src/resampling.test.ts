import { describe, expect, it } from 'vitest';
import { bootstrap } from './bootstrap.js';
import { clusterBootstrap } from './cluster-bootstrap.js';
import { bootstrapInterval } from './internal/bootstrap-interval.js';
import { ordinalKrippendorffAlpha } from './ordinal-krippendorff-alpha.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';

const mean = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

describe('createSeededSfc32', () => {
  it('repeats a stream for a seed and gives uniform values and standard normals', () => {
    const a = createSeededSfc32(42);
    const b = createSeededSfc32(42);
    const c = createSeededSfc32(43);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(first);
    const random = createSeededSfc32(7);
    const n = 200_000;
    let sum = 0;
    let sumSq = 0;
    let below = 0;
    for (let i = 0; i < n; i++) {
      const z = random.normal();
      sum += z;
      sumSq += z * z;
      if (z < -1.959964) below++;
    }
    // Mean 0 ± 4·(1/√n) = ±0.009; variance 1 ± 4·√(2/n) = ±0.013; P(Z < −1.96) = 0.025 ± 4·√(0.025·0.975/n) = ±0.0014.
    expect(Math.abs(sum / n)).toBeLessThan(0.009);
    expect(Math.abs(sumSq / n - 1)).toBeLessThan(0.013);
    expect(Math.abs(below / n - 0.025)).toBeLessThan(0.0014);
  });
});

describe('bootstrap', () => {
  it('covers the true mean of normal samples about 95% of the time (percentile and BCa)', () => {
    const random = createSeededSfc32(3);
    let coveredPercentile = 0;
    let coveredBca = 0;
    const runs = 300;
    for (let run = 0; run < runs; run++) {
      const data = Array.from({ length: 40 }, () => 10 + 2 * random.normal());
      const p = bootstrap({ data, statistic: mean, replicates: 400, method: 'percentile', seed: run });
      const b = bootstrap({ data, statistic: mean, replicates: 400, method: 'bca', seed: run });
      if (p.computable && p.lower <= 10 && 10 <= p.upper) coveredPercentile++;
      if (b.computable && b.lower <= 10 && 10 <= b.upper) coveredBca++;
    }
    // 95% nominal; the bootstrap runs slightly narrow at n = 40 (≈ 93–94%). Binomial SD over 300 runs ≈ 1.3%.
    expect(coveredPercentile / runs).toBeGreaterThan(0.89);
    expect(coveredBca / runs).toBeGreaterThan(0.89);
    expect(coveredPercentile / runs).toBeLessThan(0.99);
  });

  it('gives the standard error of a mean ≈ σ/√n and is reproducible by seed', () => {
    const data = Array.from({ length: 100 }, (_, i) => i % 10); // SD (population) = √8.25 = 2.8723; SE ≈ 0.2872
    const a = bootstrap({ data, statistic: mean, replicates: 4000, seed: 9 });
    const b = bootstrap({ data, statistic: mean, replicates: 4000, seed: 9 });
    expect(a).toEqual(b);
    if (!a.computable) throw new Error(a.reason);
    expect(a.standardError).toBeGreaterThan(0.2872 * 0.93);
    expect(a.standardError).toBeLessThan(0.2872 * 1.07);
    expect(a.estimate).toBe(4.5);
  });

  it('says when there is nothing to resample, and drops non-finite replicates', () => {
    expect(bootstrap({ data: [1], statistic: mean })).toMatchObject({ computable: false });
    const result = bootstrap({
      data: [1, 2, 3, 4],
      statistic: (s) => (new Set(s).size === 1 ? Number.NaN : mean(s)),
      replicates: 200,
    });
    expect(result.computable).toBe(true);
    if (result.computable) expect(result.replicates + result.droppedReplicates).toBe(200);
  });

  it('rejects bad options', () => {
    expect(() => bootstrap({ data: [1, 2, 3], statistic: mean, level: 95 })).toThrow(/between 0 and 1/);
    expect(() => bootstrap({ data: [1, 2, 3], statistic: mean, replicates: 3 })).toThrow(/at least 10/);
  });
});

describe('bootstrapInterval', () => {
  // Replicates spread evenly over [0, 1], so a percentile interval reads its tail shares off directly.
  const replicates = Float64Array.from({ length: 100_001 }, (_, i) => i / 100_000);

  it('expands the percentile interval for few units (Hesterberg): tail share Φ(−√(n/(n − 1))·t₀.₉₇₅,ₙ₋₁)', () => {
    const plain = bootstrapInterval({ estimate: 0.5, replicates, level: 0.95, method: 'percentile' });
    const expanded = bootstrapInterval({
      estimate: 0.5,
      replicates,
      level: 0.95,
      method: 'percentile',
      expansionSampleSize: 50,
    });
    if (!plain.computable || !expanded.computable) throw new Error('not computable');
    expect(plain.lower).toBeCloseTo(0.025, 4);
    expect(plain.upper).toBeCloseTo(0.975, 4);
    // n = 50: t₀.₉₇₅,₄₉ = 2.009575 (tables), × √(50/49) = 2.029977, Φ(−2.029977) = 0.021179.
    expect(expanded.lower).toBeCloseTo(0.021179, 4);
    expect(expanded.upper).toBeCloseTo(1 - 0.021179, 4);
    // n = 5: t₀.₉₇₅,₄ = 2.776445, × √(5/4) = 3.104157, Φ(−3.104157) = 0.000954.
    const five = bootstrapInterval({
      estimate: 0.5,
      replicates,
      level: 0.95,
      method: 'percentile',
      expansionSampleSize: 5,
    });
    if (!five.computable) throw new Error(five.reason);
    expect(five.lower).toBeCloseTo(0.000954, 4);
  });
});

describe('clusterBootstrap', () => {
  it('resamples whole clusters: with perfectly correlated members it is as wide as the cluster means allow', () => {
    // 20 sessions, each with 10 identical observations. An observation-level bootstrap would think n = 200;
    // the cluster bootstrap sees 20 units, so its SE is that of a mean of 20 values.
    const random = createSeededSfc32(5);
    const data: { session: string; value: number }[] = [];
    const sessionValues: number[] = [];
    for (let s = 0; s < 20; s++) {
      const value = random.normal();
      sessionValues.push(value);
      for (let k = 0; k < 10; k++) data.push({ session: `s${s}`, value });
    }
    const statistic = (clusters: readonly (readonly { value: number }[])[]): number =>
      mean(clusters.flat().map((d) => d.value));
    const result = clusterBootstrap({
      data,
      clusterOf: (d) => d.session,
      statistic,
      replicates: 2000,
      method: 'percentile',
      seed: 1,
    });
    if (!result.computable) throw new Error(result.reason);
    const m = mean(sessionValues);
    const sd = Math.sqrt(sessionValues.reduce((s, v) => s + (v - m) ** 2, 0) / 20);
    const expectedSe = sd / Math.sqrt(20);
    expect(result.standardError / expectedSe).toBeGreaterThan(0.9);
    expect(result.standardError / expectedSe).toBeLessThan(1.1);
  });
});

describe('ordinalKrippendorffAlpha', () => {
  it("reproduces Krippendorff's published example (4 coders, 12 units, missing values): ordinal α = 0.815", () => {
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: α_ordinal = 0.815.
    const N = null;
    const rows: Record<string, (number | null)[]> = {
      A: [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
      B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
      C: [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
      D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
    };
    const ratings = Object.fromEntries(
      Object.entries(rows).map(([c, v]) => [c, Object.fromEntries(v.map((x, i) => [`u${i + 1}`, x]))]),
    );
    const result = ordinalKrippendorffAlpha(ratings);
    expect(result).toMatchObject({ computable: true, pairableUnits: 11, pairableValues: 40 });
    if (result.computable) expect(result.alpha).toBeCloseTo(0.815, 3);
  });

  it('works a 2-coder case by hand: coders agree on two units and swap on a third', () => {
    // Units: (1,1), (2,2), (1,2). Coincidences: o11 = 2, o22 = 2, o12 = o21 = 1; n1 = n2 = 3, n = 6.
    // Ordinal δ²(1,2) = (n1 + n2 − (n1 + n2)/2)² = 3² = 9.
    // α = 1 − (n − 1)·Σo·δ² / Σ n_c n_k δ² = 1 − 5·(2·1·9) / (2·3·3·9) = 1 − 90/162 = 0.444444.
    const result = ordinalKrippendorffAlpha({ a: { u1: 1, u2: 2, u3: 1 }, b: { u1: 1, u2: 2, u3: 2 } });
    expect(result.computable && result.alpha).toBeCloseTo(4 / 9, 12);
  });

  it('is 1 for perfect agreement and not computable when every value is the same', () => {
    expect(ordinalKrippendorffAlpha({ a: { u1: 1, u2: 5, u3: 3 }, b: { u1: 1, u2: 5, u3: 3 } })).toMatchObject({
      alpha: 1,
    });
    expect(ordinalKrippendorffAlpha({ a: { u1: 7, u2: 7 }, b: { u1: 7, u2: 7 } })).toMatchObject({ computable: false });
  });
});
