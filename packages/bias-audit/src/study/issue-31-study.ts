import { calibratedView } from '../calibrated-view.js';
import { wilsonBounds } from '../wilson-interval.js';
import type { Issue31Council } from './simulate-issue-31-councils.js';
import { simulateIssue31Councils } from './simulate-issue-31-councils.js';
import type { StudyRow, StudyVerdict } from './summarize-tally.js';
import { DEFAULT_COVERAGE_TARGET } from './summarize-tally.js';
import type { StudyTarget } from './study-scenario.js';

/** One row family of issue 31's study: a council shape at one store size, and what is measured on each store. */
export interface Issue31Scenario {
  name: string;
  sessions: number;
  runs: number;
  council: (seed: number) => Issue31Council;
  /** Measures one store: per metric, successes and trials (a coverage metric pools its subjects). */
  measure: (council: Issue31Council, resamples: number) => Record<string, { successes: number; trials: number }>;
  targets: Record<string, StudyTarget | undefined>;
  /** Per metric: a coverage (Wilson on runs, conservative for pooled subjects) or a rate over runs. */
  pooled?: readonly string[];
}

/**
 * The planted ranking raw scores get wrong: five members 0.3 points apart (model-0 best), primacy 0.2 points a
 * position, model-4 reviewing only the best two 1.5 points harsh and model-0 reviewing only the weakest two 1.5
 * points generous. Raw levels: the best two lose ≈ 0.375 and the weakest two gain ≈ 0.375 (a quarter of their
 * reviews), so the raw order is 0, 3, 2, 1, 4 in expectation.
 */
export function harshOnBestCouncil(sessions: number): (seed: number) => Issue31Council {
  return (seed) => ({
    sessions,
    seed,
    quality: [1.2, 0.9, 0.6, 0.3, 0],
    reviewerOffsets: [1.5, 0, 0, 0, -1.5],
    reviews: [[3, 4], null, null, null, [0, 1]],
    primacyPerPosition: 0.2,
  });
}

const sameOrder = (order: readonly string[], quality: readonly number[]): boolean =>
  order.every((model, i) => model === `model-${[...quality.keys()].sort((a, b) => quality[b]! - quality[a]!)[i]}`);

function measureCalibrated(
  council: Issue31Council,
  resamples: number,
): Record<string, { successes: number; trials: number }> {
  const view = calibratedView(simulateIssue31Councils(council), { resamples, seed: council.seed });
  const calibratedOrder = view.leaderboard.map((e) => e.model);
  const rawOrder = [...view.leaderboard].sort((a, b) => b.raw.estimate - a.raw.estimate).map((e) => e.model);
  let covered = 0;
  for (const d of view.differences) {
    const truth = council.quality[Number(d.model.slice(6))]! - council.quality[Number(d.other.slice(6))]!;
    if (d.calibrated.lower !== null && d.calibrated.lower <= truth && truth <= d.calibrated.upper!) covered++;
  }
  return {
    'calibrated leaderboard in the planted order': {
      successes: sameOrder(calibratedOrder, council.quality) ? 1 : 0,
      trials: 1,
    },
    'raw leaderboard in the planted order': { successes: sameOrder(rawOrder, council.quality) ? 1 : 0, trials: 1 },
    'calibrated difference intervals cover the planted quality gap': {
      successes: covered,
      trials: view.differences.length,
    },
  };
}

const calibratedTargets = {
  'calibrated difference intervals cover the planted quality gap': DEFAULT_COVERAGE_TARGET,
};

/** Issue 31's scenarios (the full study; `--quick` takes a fifth of the runs). */
export const ISSUE_31_SCENARIOS: readonly Issue31Scenario[] = [20, 50, 300].map((sessions) => ({
  name: `calibrated-harsh-on-best-${sessions}`,
  sessions,
  runs: 200,
  council: harshOnBestCouncil(sessions),
  measure: measureCalibrated,
  targets: calibratedTargets,
  pooled: ['calibrated difference intervals cover the planted quality gap'],
}));

function verdictOf(spec: {
  rate: number;
  lower: number;
  upper: number;
  target: StudyTarget | undefined;
}): StudyVerdict | null {
  const { rate, lower, upper, target } = spec;
  if (target === undefined) return null;
  const min = target.min ?? Number.NEGATIVE_INFINITY;
  const max = target.max ?? Number.POSITIVE_INFINITY;
  const pass = rate >= min && rate <= max;
  const certain = pass ? lower >= min && upper <= max : upper < min || lower > max;
  return `${pass ? 'pass' : 'FAIL'}${certain ? '' : '?'}`;
}

const targetLabel = (target: StudyTarget | undefined): string =>
  target === undefined
    ? ''
    : target.min !== undefined && target.max !== undefined
      ? `${100 * target.min}–${100 * target.max}%`
      : target.min !== undefined
        ? `≥ ${100 * target.min}%`
        : `≤ ${100 * target.max!}%`;

/**
 * Runs `runs` stores of a scenario (seeds `firstSeed`…) and returns its rows: each rate with its Wilson 95% interval
 * (a pooled coverage gets Wilson's interval on the number of stores, conservative for subjects within a store).
 */
export function runIssue31Scenario(
  scenario: Issue31Scenario,
  options: { runs?: number; resamples?: number; firstSeed?: number } = {},
): StudyRow[] {
  const runs = options.runs ?? scenario.runs;
  const resamples = options.resamples ?? 1000;
  const totals = new Map<string, { successes: number; trials: number }>();
  for (let run = 0; run < runs; run++) {
    const council = scenario.council((options.firstSeed ?? 1) + run);
    for (const [metric, count] of Object.entries(scenario.measure(council, resamples))) {
      const total = totals.get(metric) ?? { successes: 0, trials: 0 };
      total.successes += count.successes;
      total.trials += count.trials;
      totals.set(metric, total);
    }
  }
  return [...totals].map(([metric, { successes, trials }]) => {
    const rate = trials > 0 ? successes / trials : null;
    const pooled = scenario.pooled?.includes(metric) ?? false;
    const bounds = rate === null ? null : wilsonBounds(rate, pooled ? runs : trials);
    const target = scenario.targets[metric];
    return {
      scenario: scenario.name,
      runs,
      sessions: scenario.sessions,
      metric,
      rate,
      lower: bounds?.lower ?? null,
      upper: bounds?.upper ?? null,
      target: targetLabel(target),
      verdict:
        rate === null || bounds === null ? null : verdictOf({ rate, lower: bounds.lower, upper: bounds.upper, target }),
      detail: `${successes} of ${trials}${pooled ? ` (${trials / runs} a store)` : ''}`,
    };
  });
}
