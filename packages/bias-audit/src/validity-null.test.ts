import { describe, expect, it } from 'vitest';
import { runValidityStudy } from './internal/validity-study.js';

// Statistical validity, shown by simulation (seeded, deterministic). An unbiased council: 5 models,
// 4 reviewers (themselves members, so self-votes occur), 50 sessions, per-reviewer random orders, no
// length, position, harshness, self-preference or affinity effect (see internal/simulate-councils.ts).
// 2,000 runs: a binomial standard error of 0.49% at 95%, so the 93.5–96.5% window is ±3 SE. The
// session-cluster bootstrap uses 200 replicates here to keep the suite fast (the bench runs 1,000).
describe('an unbiased council (5 models, 4 reviewers, 50 sessions, 2,000 runs)', () => {
  const figures = runValidityStudy({ runs: 2000, seed: 1, simulation: { sessions: 50 }, options: { bootstrapReplicates: 200 } });

  it("raises any bias flag in at most 5% of runs (ADR-018's false-positive target)", () => {
    expect(figures.anyFlagRate).toBeLessThanOrEqual(0.05);
    // Holm across families keeps the rate near, not far below, its level: a sanity floor that a broken
    // (never-flagging) report would fail.
    expect(figures.anyFlagRate).toBeGreaterThan(0.01);
  });

  it('95% intervals of the pooled length correlation cover the truth (0) in 93.5–96.5% of runs', () => {
    expect(figures.lengthCoverage).toBeGreaterThanOrEqual(0.935);
    expect(figures.lengthCoverage).toBeLessThanOrEqual(0.965);
  });

  it('95% intervals of every position effect cover the truth (0) in 93.5–96.5% of runs', () => {
    expect(figures.positionCoverage).toHaveLength(5);
    for (const coverage of figures.positionCoverage) {
      expect(coverage).toBeGreaterThanOrEqual(0.935);
      expect(coverage).toBeLessThanOrEqual(0.965);
    }
  });
}, 120_000);
