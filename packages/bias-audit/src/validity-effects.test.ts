import { describe, expect, it } from 'vitest';
import { runValidityStudy } from './internal/validity-study.js';

// A true length–score correlation of 0.3 (between a response's length and its mean score within a
// session), 5 models, 4 reviewers, 50 sessions, 2,000 runs.
describe('a council with a true length–score correlation of 0.3 (50 sessions, 2,000 runs)', () => {
  const figures = runValidityStudy({ runs: 2000, seed: 100_001, simulation: { sessions: 50, lengthCorrelation: 0.3 }, options: { bootstrapReplicates: 1000 } });

  it('flags length bias in at least 80% of runs (power)', () => {
    expect(figures.lengthFlagRate).toBeGreaterThanOrEqual(0.8);
  });

  it('95% intervals of the pooled correlation cover 0.3 in 93.5–96.5% of runs', () => {
    expect(figures.lengthCoverage).toBeGreaterThanOrEqual(0.935);
    expect(figures.lengthCoverage).toBeLessThanOrEqual(0.965);
  });

  it('95% session-cluster bootstrap (BCa) intervals of the pooled correlation cover 0.3 in 93.5–96.5% of runs', () => {
    expect(figures.lengthBootstrapCoverage).not.toBeNull();
    expect(figures.lengthBootstrapCoverage!).toBeGreaterThanOrEqual(0.935);
    expect(figures.lengthBootstrapCoverage!).toBeLessThanOrEqual(0.965);
  });
}, 120_000);

// Primacy +0.4, middle −0.2, recency +0.3 score points (ADR-017's typical sizes), no length effect.
describe('a council with position effects (50 sessions)', () => {
  const positionEffects = [0.4, 0, -0.2, 0, 0.3];

  it('95% intervals of each position effect cover the true centred effect in 93.5–96.5% of 2,000 runs', () => {
    // Intervals only: the permutation test is switched off here to keep the suite fast.
    const figures = runValidityStudy({ runs: 2000, seed: 200_001, simulation: { sessions: 50, positionEffects }, options: { bootstrapReplicates: 0, permutations: 0 } });
    for (const coverage of figures.positionCoverage) {
      expect(coverage).toBeGreaterThanOrEqual(0.935);
      expect(coverage).toBeLessThanOrEqual(0.965);
    }
  });

  it('the permutation test flags position bias in at least 90% of 200 runs', () => {
    const figures = runValidityStudy({ runs: 200, seed: 300_001, simulation: { sessions: 50, positionEffects }, options: { bootstrapReplicates: 0 } });
    expect(figures.flagCounts['POSITION_BIAS_DETECTED'] ?? 0).toBeGreaterThanOrEqual(180);
  });
}, 120_000);
