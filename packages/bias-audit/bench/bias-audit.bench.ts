import { defineBenchSuite } from '@council/bench';
import type { BenchValue } from '@council/bench';
import { aggregateBiasAudit, runBiasAudit } from '../src/index.js';
import type { BiasObservation } from '../src/index.js';
import { simulateCouncils } from '../src/internal/simulate-councils.js';
import { runValidityStudy } from '../src/internal/validity-study.js';

// Issue 4's targets: runBiasAudit on one 5-model session ≤ 1 ms; aggregateBiasAudit over 1,000
// sessions (≈ 20,000 observations) with 1,000 bootstrap replicates ≤ 100 ms, over 100,000 ≤ 5 s.
// The simulation figures (false-positive rate, coverage, power) are printed as values, from the full
// report: 1,000 bootstrap replicates and up to 1,000 permutations per run.

const session = {
  responses: ['a', 'b', 'c', 'd', 'e'].map((candidate, i) => ({ candidate, text: 'word '.repeat(80 + 37 * i) })),
  scores: {
    a: { a: 8, b: 6, c: 7, d: 5, e: 9 },
    b: { a: 7, b: 7, c: 6, d: 6, e: 8 },
    c: { a: 6, b: 5, c: 8, d: 4, e: 7 },
    d: { a: 7, b: 6, c: 7, d: 6, e: 9 },
    e: { a: 8, b: 6, c: 6, d: 5, e: 9 },
  },
  positions: { a: 2, b: 0, c: 4, d: 1, e: 3 },
};
const window = { now: '2100-01-01T00:00:00Z', maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY };
let thousand: BiasObservation[] = [];
let hundredThousand: BiasObservation[] = [];

const percent = (x: number): number => Math.round(x * 1000) / 10;

export const suite = defineBenchSuite({
  name: 'bias-audit',
  setup: () => {
    thousand = simulateCouncils({ sessions: 1000, seed: 1 });
    hundredThousand = simulateCouncils({ sessions: 100_000, seed: 2 });
  },
  cases: [
    { name: 'runBiasAudit, 5-model session, ×1,000 calls', budgetMs: 1000, iterations: 15, fn: () => { for (let i = 0; i < 1000; i++) runBiasAudit(session); } },
    { name: `aggregateBiasAudit, 1,000 sessions (20,000 obs), 1,000 bootstrap`, budgetMs: 100, iterations: 15, fn: () => aggregateBiasAudit(thousand, window) },
    { name: 'aggregateBiasAudit, 100,000 sessions (2,000,000 obs)', budgetMs: 5000, iterations: 2, fn: () => aggregateBiasAudit(hundredThousand, window) },
  ],
  values: (): BenchValue[] => {
    hundredThousand = [];
    // 2,000 runs where coverage is judged (binomial SE 0.49% at 95%), the same seeds as the tests.
    const nullStudy = runValidityStudy({ runs: 2000, seed: 1, simulation: { sessions: 50 } });
    const power50 = runValidityStudy({ runs: 2000, seed: 100_001, simulation: { sessions: 50, lengthCorrelation: 0.3 } });
    const power30 = runValidityStudy({ runs: 1000, seed: 400_001, simulation: { sessions: 30, lengthCorrelation: 0.3 } });
    const effects = [0.4, 0, -0.2, 0, 0.3];
    const positionCoverage = runValidityStudy({ runs: 2000, seed: 200_001, simulation: { sessions: 50, positionEffects: effects }, options: { permutations: 0, bootstrapReplicates: 0 } });
    const positionPower = runValidityStudy({ runs: 500, seed: 300_001, simulation: { sessions: 50, positionEffects: effects } });
    const sharedNull = runValidityStudy({ runs: 1000, seed: 500_001, simulation: { sessions: 50, sharedOrder: true } });
    return [
      { name: 'false-positive rate, unbiased council, 50 sessions (any flag, 2,000 runs)', value: percent(nullStudy.anyFlagRate), unit: '%', budget: 5 },
      { name: 'coverage, 95% pooled-r interval (Fisher z), ρ = 0', value: percent(nullStudy.lengthCoverage), unit: '%' },
      { name: 'coverage, 95% pooled-r interval (cluster bootstrap BCa, expanded for 50 sessions), ρ = 0', value: percent(nullStudy.lengthBootstrapCoverage ?? 0), unit: '%' },
      { name: 'coverage, 95% position-effect intervals, no effect (lowest of 5)', value: percent(Math.min(...nullStudy.positionCoverage)), unit: '%' },
      { name: 'coverage, 95% pooled-r interval (Fisher z), ρ = 0.3', value: percent(power50.lengthCoverage), unit: '%' },
      { name: 'coverage, 95% pooled-r interval (cluster bootstrap BCa, expanded for 50 sessions), ρ = 0.3', value: percent(power50.lengthBootstrapCoverage ?? 0), unit: '%' },
      { name: 'coverage, 95% position-effect intervals, effects .4/0/−.2/0/.3 (lowest of 5)', value: percent(Math.min(...positionCoverage.positionCoverage)), unit: '%' },
      { name: 'power: ρ = 0.3 flagged at 50 sessions (2,000 runs)', value: percent(power50.lengthFlagRate), unit: '%' },
      { name: 'power: ρ = 0.3 flagged at 30 sessions (1,000 runs)', value: percent(power30.lengthFlagRate), unit: '%' },
      { name: 'power: position effects .4/0/−.2/0/.3 flagged at 50 sessions (500 runs)', value: percent((positionPower.flagCounts['POSITION_BIAS_DETECTED'] ?? 0) / positionPower.runs), unit: '%' },
      { name: 'shared orders, unbiased: position test p ≤ 0.05 (1,000 runs)', value: percent(sharedNull.positionTestRejectionRate), unit: '%' },
      { name: 'shared orders, unbiased: any flag (1,000 runs)', value: percent(sharedNull.anyFlagRate), unit: '%', budget: 5 },
    ];
  },
});
