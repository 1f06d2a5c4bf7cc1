import type { AggregateBiasAuditOptions } from '../aggregate-bias-audit.js';
import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import type { BiasMetricReport } from '../bias-metric-report.js';
import { simulateCouncils } from './simulate-councils.js';
import type { CouncilSimulation } from './simulate-councils.js';

/** What a batch of simulated councils says about the report's statistical validity. */
export interface ValidityFigures {
  runs: number;
  sessions: number;
  /** Share of runs where the report raised any bias flag. */
  anyFlagRate: number;
  /** Share of runs where the length bias flag was raised (power under a true length effect). */
  lengthFlagRate: number;
  /** Share of runs whose pooled-correlation interval (Fisher z) covered the true correlation. */
  lengthCoverage: number;
  /** Same for the session-cluster bootstrap interval (null when the bootstrap was off). */
  lengthBootstrapCoverage: number | null;
  /** Per display position, share of runs whose interval covered the true centred effect. */
  positionCoverage: number[];
  /** Runs per flag code. */
  flagCounts: Record<string, number>;
  /** Share of runs whose score-based position permutation test had p ≤ 0.05 (before any correction). */
  positionTestRejectionRate: number;
}

const covers = (report: BiasMetricReport, truth: number): boolean =>
  report.ciLower !== null && report.ciUpper !== null && report.ciLower <= truth && truth <= report.ciUpper;

/**
 * Runs `runs` simulated councils through `aggregateBiasAudit` and tallies flags and coverage. The
 * truth: the simulated length correlation, and each position's effect minus the mean effect (the
 * expectation of a within-reviewer centred score when every reviewer scores every position).
 */
export function runValidityStudy(spec: {
  runs: number;
  seed: number;
  simulation: Omit<CouncilSimulation, 'seed'>;
  options?: AggregateBiasAuditOptions;
}): ValidityFigures {
  const { runs, simulation } = spec;
  const models = simulation.models ?? 5;
  const effects = Array.from({ length: models }, (_, p) => simulation.positionEffects?.[p] ?? 0);
  const meanEffect = effects.reduce((s, e) => s + e, 0) / models;
  const truthPosition = effects.map((e) => e - meanEffect);
  const truthLength = simulation.lengthCorrelation ?? 0;
  let anyFlag = 0;
  let lengthFlag = 0;
  let lengthCovered = 0;
  let bootstrapCovered = 0;
  let bootstrapSeen = 0;
  const positionCovered = effects.map(() => 0);
  const flagCounts: Record<string, number> = {};
  let positionRejected = 0;
  for (let run = 0; run < runs; run++) {
    const observations = simulateCouncils({ ...simulation, seed: spec.seed + run });
    const report = aggregateBiasAudit(observations, {
      now: '2100-01-01T00:00:00Z',
      maxSessions: Number.POSITIVE_INFINITY,
      maxDays: Number.POSITIVE_INFINITY,
      ...spec.options,
      seed: spec.seed + run,
    });
    if (report.flags.length > 0) anyFlag++;
    for (const code of new Set(report.flags.map((f) => f.code))) flagCounts[code] = (flagCounts[code] ?? 0) + 1;
    if (report.flags.some((f) => f.code === 'LENGTH_BIAS_DETECTED')) lengthFlag++;
    if (report.position.tests.some((t) => t.basis === 'scores' && t.pValue <= 0.05)) positionRejected++;
    if (covers(report.lengthCorrelation, truthLength)) lengthCovered++;
    const boot = report.lengthCorrelation.bootstrap;
    if (boot !== null) {
      bootstrapSeen++;
      if (boot.ciLower <= truthLength && truthLength <= boot.ciUpper) bootstrapCovered++;
    }
    report.position.effects.forEach((effect, p) => {
      if (p < truthPosition.length && covers(effect, truthPosition[p]!)) positionCovered[p]!++;
    });
  }
  return {
    runs,
    sessions: simulation.sessions,
    anyFlagRate: anyFlag / runs,
    lengthFlagRate: lengthFlag / runs,
    lengthCoverage: lengthCovered / runs,
    lengthBootstrapCoverage: bootstrapSeen === 0 ? null : bootstrapCovered / bootstrapSeen,
    positionCoverage: positionCovered.map((c) => c / runs),
    flagCounts,
    positionTestRejectionRate: positionRejected / runs,
  };
}
