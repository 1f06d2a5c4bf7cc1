import { styleControlledBradleyTerry } from '@council/scoring';
import type { StyledSession } from '@council/scoring';
import type { BiasObservation } from '../bias-observation.js';
import { calibratedView } from '../calibrated-view.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import { EFFECTIVE_JUDGES_CLAIMED_FROM, effectiveJudges } from '../effective-judges.js';
import { fitScoreModelWithCentre } from '../fit-score-model.js';
import { simulateCouncils } from '../internal/simulate-councils.js';
import { observationsToColumns } from '../observations-to-columns.js';
import { partialPool } from '../partial-pooling.js';
import { poolReviewerOffsets } from '../pool-reviewer-effects.js';
import { wilsonBounds } from '../wilson-interval.js';
import type { Issue31Council, NoiseBlock } from './simulate-issue-31-councils.js';
import { simulateIssue31Councils } from './simulate-issue-31-councils.js';
import type { StudyRow } from './summarize-tally.js';
import { DEFAULT_COVERAGE_TARGET, verdictOf } from './summarize-tally.js';
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

/** The margin a reviewer offset is flagged beyond (the report's default `reviewerOffset`). */
const OFFSET_MARGIN = 0.25;

/** Whether an interval lies wholly beyond ±margin: how the report flags a harsh or generous reviewer. */
const beyondMargin = (lower: number, upper: number): boolean => lower > OFFSET_MARGIN || upper < -OFFSET_MARGIN;

/**
 * Pooled offsets' coverage where reviewers differ: five members with the planted offsets (symmetric about 0, so the
 * typical reviewer is at 0), through `simulateCouncils` (self-review on, as its validity study). The truth of each
 * offset is its planted value; the raw intervals (the report's t) are counted beside the pooled ones. The offsets are
 * pooled as `poolReviewerEffects` pools them (the robust centre's error beyond the raw intervals' included).
 */
const measurePoolingSpread =
  (planted: readonly number[]) =>
  (council: Issue31Council): Record<string, { successes: number; trials: number }> => {
    const { fit, centre } = fitScoreModelWithCentre(
      observationsToColumns(
        simulateCouncils({
          sessions: council.sessions,
          seed: council.seed,
          models: 5,
          reviewers: 5,
          reviewerOffsets: planted,
        }),
      ),
    );
    const pooled = poolReviewerOffsets(fit, centre);
    let raw = 0;
    let shrunk = 0;
    let extremes = 0;
    fit.reviewerOffsets.forEach((o) => {
      const truth = planted[Number(o.subject.slice(6))]!;
      const p = pooled.effects.find((e) => e.subject === o.subject)!;
      if (o.lower <= truth && truth <= o.upper) raw++;
      if (p.lower <= truth && truth <= p.upper) {
        shrunk++;
        if (truth !== 0) extremes++;
      }
    });
    return {
      'pooled offset intervals cover the planted offsets': { successes: shrunk, trials: fit.reviewerOffsets.length },
      "the outlying reviewers' pooled intervals cover theirs": {
        successes: extremes,
        trials: planted.filter((x) => x !== 0).length,
      },
      'raw offset intervals cover the planted offsets (for comparison)': {
        successes: raw,
        trials: fit.reviewerOffsets.length,
      },
    };
  };

/**
 * Partial pooling alone, without the score model: five raw estimates drawn y_i ~ N(θ_i, se²) around the planted
 * offsets, reported with that se, then pooled. This is the question partial pooling answers when the raw estimates
 * are as their intervals say; `pooling-graded` adds the score model's robust centre, whose own error at 50 sessions
 * (known from issue 29) the raw intervals do not carry.
 */
const measurePoolingDirect =
  (planted: readonly number[], standardError: number) =>
  (council: Issue31Council): Record<string, { successes: number; trials: number }> => {
    const random = createSeededSfc32(council.seed);
    const raw = planted.map((theta) => theta + standardError * random.normal());
    const pooled = partialPool(raw.map((estimate, i) => ({ subject: `model-${i}`, estimate, standardError })));
    let shrunk = 0;
    let direct = 0;
    pooled.effects.forEach((p, i) => {
      const truth = planted[i]!;
      if (p.lower <= truth && truth <= p.upper) shrunk++;
      if (Math.abs(raw[i]! - truth) <= 1.959964 * standardError) direct++;
    });
    return {
      'pooled offset intervals cover the planted offsets': { successes: shrunk, trials: planted.length },
      'raw offset intervals cover the planted offsets (for comparison)': { successes: direct, trials: planted.length },
    };
  };

/**
 * A fair council of five (equal quality, no offsets) over 50 sessions, where model-4 reviews only in the first 12:
 * its raw offset is noisy. How often is it flagged (interval wholly beyond ±0.25) raw and pooled, and how often does
 * its raw estimate alone look extreme (|offset| > 0.25)?
 */
function measureTwelveSessionReviewer(council: Issue31Council): Record<string, { successes: number; trials: number }> {
  const { fit, centre } = fitScoreModelWithCentre(observationsToColumns(simulateIssue31Councils(council)));
  const pooled = poolReviewerOffsets(fit, centre);
  const raw = fit.reviewerOffsets.find((o) => o.subject === 'model-4')!;
  const p = pooled.effects.find((e) => e.subject === 'model-4')!;
  return {
    'model-4 (12 sessions) flagged from its pooled offset': {
      successes: beyondMargin(p.lower, p.upper) ? 1 : 0,
      trials: 1,
    },
    'model-4 flagged from its raw offset (for comparison)': {
      successes: beyondMargin(raw.lower, raw.upper) ? 1 : 0,
      trials: 1,
    },
    'model-4 raw offset beyond ±0.25 (looks extreme)': {
      successes: Math.abs(raw.estimate) > OFFSET_MARGIN ? 1 : 0,
      trials: 1,
    },
    'model-4 pooled offset beyond ±0.25': { successes: Math.abs(p.estimate) > OFFSET_MARGIN ? 1 : 0, trials: 1 },
    'pooled offset intervals cover 0 (every reviewer)': {
      successes: pooled.effects.filter((e) => e.lower <= 0 && 0 <= e.upper).length,
      trials: pooled.effects.length,
    },
  };
}

/** A score's rounding to halves adds an independent error of variance 0.5²/12 to every reviewer's. */
const ROUNDING_VARIANCE = 0.25 / 12;

/**
 * The planted n_eff of a council whose reviewers (noise SD 1) share noise within blocks: each in-block pair's error
 * correlation is ρ/(1 + rounding variance), other pairs' 0, and n_eff = R/(1 + (R − 1)·ρ̄).
 */
export function plantedEffectiveJudges(reviewers: number, blocks: readonly NoiseBlock[]): number {
  let total = 0;
  for (const block of blocks) {
    const m = block.members.length;
    total += ((m * (m - 1)) / 2) * (block.correlation / (1 + ROUNDING_VARIANCE));
  }
  const meanRho = total / ((reviewers * (reviewers - 1)) / 2);
  return reviewers / (1 + (reviewers - 1) * meanRho);
}

const measureEffectiveJudges =
  (blocks: readonly NoiseBlock[]) =>
  (council: Issue31Council, resamples: number): Record<string, { successes: number; trials: number }> => {
    const judges = effectiveJudges(simulateIssue31Councils({ ...council, noiseBlocks: blocks }), {
      resamples,
      seed: council.seed,
    });
    const truth = plantedEffectiveJudges(council.quality.length, blocks);
    const { lower, upper } = judges.effective;
    // Each pair's planted correlation: ρ/(1 + rounding variance) within a block, 0 across.
    const plantedPair = (a: number, b: number): number => {
      const block = blocks.find((x) => x.members.includes(a) && x.members.includes(b));
      return block === undefined ? 0 : block.correlation / (1 + ROUNDING_VARIANCE);
    };
    const pairsCovered = judges.pairs.filter((p) => {
      const rho = plantedPair(Number(p.reviewer.slice(6)), Number(p.other.slice(6)));
      return p.correlation.lower !== null && p.correlation.lower <= rho && rho <= p.correlation.upper!;
    }).length;
    return {
      'pair correlation intervals cover the planted ρ': { successes: pairsCovered, trials: judges.pairs.length },
      [`n_eff interval covers the planted ${truth.toFixed(2)}`]: {
        successes: lower !== null && lower <= truth && truth <= upper! ? 1 : 0,
        trials: 1,
      },
      'n_eff interval below the 5 judges (redundancy found)': {
        successes: upper !== null && upper < 5 ? 1 : 0,
        trials: 1,
      },
      // Which way a miss goes: wholly above the truth understates how alike the judges err.
      ...(blocks.length === 0
        ? {}
        : {
            [`n_eff interval wholly above the planted ${truth.toFixed(2)} (redundancy understated)`]: {
              successes: lower !== null && lower > truth ? 1 : 0,
              trials: 1,
            },
          }),
    };
  };

/** The councils' rankings as style-controlled Bradley–Terry's sessions, each answer's one feature its length in 1,000s of characters. */
function styledSessions(observations: readonly BiasObservation[]): StyledSession[] {
  const sessions = new Map<string, { answers: Record<string, number[]>; ranked: Map<string, [number, string][]> }>();
  for (const o of observations) {
    let session = sessions.get(o.sessionId);
    if (session === undefined) sessions.set(o.sessionId, (session = { answers: {}, ranked: new Map() }));
    session.answers[o.candidate] = [o.responseLengthChars / 1000];
    if (o.rankPosition === null) continue;
    const list = session.ranked.get(o.reviewer) ?? [];
    list.push([o.rankPosition, o.candidate]);
    session.ranked.set(o.reviewer, list);
  }
  return [...sessions].map(([id, { answers, ranked }]) => ({
    id,
    answers,
    ballots: [...ranked].map(([reviewer, list]) => ({
      reviewer,
      ranking: list.sort((a, b) => a[0] - b[0]).map(([, candidate]) => candidate),
    })),
  }));
}

/**
 * Reviewers that like long answers (0.8 points per 1,000 characters) and the weakest member writing twice as long
 * (3,000 characters against 1,500, SD 400 each): plain Bradley–Terry lifts it to the top group; with log length as a
 * covariate (identified from each member's own spread of lengths) the planted order should come back.
 */
function measureStyleControl(council: Issue31Council): Record<string, { successes: number; trials: number }> {
  const fit = styleControlledBradleyTerry(styledSessions(simulateIssue31Councils(council)), {
    featureNames: ['length_per_1000_chars'],
    bootstrap: 0,
  });
  const planted = council.quality.map((_, m) => `model-${m}`);
  const inOrder = (list: readonly { candidate: string }[]): boolean => list.every((e, i) => e.candidate === planted[i]);
  const rankOf = (list: readonly { candidate: string; rank: number }[]): number =>
    list.find((e) => e.candidate === 'model-4')!.rank;
  return {
    'style-controlled ratings in the planted order': { successes: inOrder(fit.styleControlled) ? 1 : 0, trials: 1 },
    'plain ratings in the planted order': { successes: inOrder(fit.plain) ? 1 : 0, trials: 1 },
    'the long-writing weakest member last, style-controlled': {
      successes: rankOf(fit.styleControlled) === 5 ? 1 : 0,
      trials: 1,
    },
    'the long-writing weakest member last, plain': { successes: rankOf(fit.plain) === 5 ? 1 : 0, trials: 1 },
  };
}

/** Issue 31's scenarios (the full study; `--quick` takes a fifth of the runs). */
export const ISSUE_31_SCENARIOS: readonly Issue31Scenario[] = [
  ...[20, 50, 300].map((sessions) => ({
    name: `calibrated-harsh-on-best-${sessions}`,
    sessions,
    runs: 200,
    council: harshOnBestCouncil(sessions),
    measure: measureCalibrated,
    targets: calibratedTargets,
    pooled: ['calibrated difference intervals cover the planted quality gap'],
  })),
  ...[20, 50, 300].map((sessions) => ({
    name: `pooling-outliers-${sessions}`,
    sessions,
    runs: 200,
    council: (seed: number): Issue31Council => ({ sessions, seed, quality: [] }),
    measure: measurePoolingSpread([0, 0, 0, -1, 1]),
    targets: { 'pooled offset intervals cover the planted offsets': DEFAULT_COVERAGE_TARGET },
    pooled: [
      'pooled offset intervals cover the planted offsets',
      "the outlying reviewers' pooled intervals cover theirs",
      'raw offset intervals cover the planted offsets (for comparison)',
    ],
  })),
  ...[20, 50, 300].map((sessions) => ({
    name: `pooling-graded-${sessions}`,
    sessions,
    runs: 200,
    council: (seed: number): Issue31Council => ({ sessions, seed, quality: [] }),
    measure: measurePoolingSpread([-0.2, -0.1, 0, 0.1, 0.2]),
    targets: { 'pooled offset intervals cover the planted offsets': DEFAULT_COVERAGE_TARGET },
    pooled: [
      'pooled offset intervals cover the planted offsets',
      "the outlying reviewers' pooled intervals cover theirs",
      'raw offset intervals cover the planted offsets (for comparison)',
    ],
  })),
  ...[20, 50, 300].flatMap((sessions) =>
    (
      [
        [
          'two-blocks',
          [
            { members: [0, 1, 2], correlation: 0.6 },
            { members: [3, 4], correlation: 0.6 },
          ],
        ],
        ['one-pair', [{ members: [0, 1], correlation: 0.8 }]],
        ['independent', []],
      ] as const
    ).map(([shape, blocks]) => ({
      name: `n-eff-${shape}-${sessions}`,
      sessions,
      runs: 200,
      council: (seed: number): Issue31Council => ({ sessions, seed, quality: [0.6, 0.3, 0, -0.3, -0.6] }),
      measure: measureEffectiveJudges(blocks),
      // Where every reviewer errs independently the truth, 5, is n_eff's bound: the interval covers it unless it
      // claims redundancy, the false alarm a team lead would act on, so that is the target there, at every size.
      // Coverage is claimed from `EFFECTIVE_JUDGES_CLAIMED_FROM` sessions: below, the report says the interval is less
      // sure than its level, and the 20-session rows are measured, not targets.
      targets: {
        ...(blocks.length === 0 ? { 'n_eff interval below the 5 judges (redundancy found)': { max: 0.05 } } : {}),
        ...(sessions < EFFECTIVE_JUDGES_CLAIMED_FROM
          ? {}
          : {
              ...(blocks.length === 0
                ? {}
                : {
                    [`n_eff interval covers the planted ${plantedEffectiveJudges(5, blocks).toFixed(2)}`]:
                      DEFAULT_COVERAGE_TARGET,
                  }),
              'pair correlation intervals cover the planted ρ': DEFAULT_COVERAGE_TARGET,
            }),
      },
      pooled: ['pair correlation intervals cover the planted ρ'],
    })),
  ),
  ...[50, 300].map((sessions) => ({
    name: `style-control-long-weakest-${sessions}`,
    sessions,
    runs: 200,
    council: (seed: number): Issue31Council => ({
      sessions,
      seed,
      quality: [0.6, 0.3, 0, -0.3, -0.6],
      lengthSlopePer1000Chars: 0.8,
      meanChars: [1500, 1500, 1500, 1500, 3000],
    }),
    measure: measureStyleControl,
    targets: {},
  })),
  // The standard errors the score model gives five reviewers at 20 and 50 sessions (0.103, 0.066 on average).
  ...(
    [
      [20, 0.103],
      [50, 0.066],
    ] as const
  ).map(([sessions, standardError]) => ({
    name: `pooling-graded-direct-${sessions}`,
    sessions,
    runs: 200,
    council: (seed: number): Issue31Council => ({ sessions, seed, quality: [] }),
    measure: measurePoolingDirect([-0.2, -0.1, 0, 0.1, 0.2], standardError),
    targets: { 'pooled offset intervals cover the planted offsets': DEFAULT_COVERAGE_TARGET },
    pooled: [
      'pooled offset intervals cover the planted offsets',
      'raw offset intervals cover the planted offsets (for comparison)',
    ],
  })),
  {
    name: 'pooling-12-session-reviewer',
    sessions: 50,
    runs: 400,
    council: (seed: number): Issue31Council => ({
      sessions: 50,
      seed,
      quality: [0, 0, 0, 0, 0],
      reviewerSessions: [null, null, null, null, 12],
    }),
    measure: measureTwelveSessionReviewer,
    targets: { 'model-4 (12 sessions) flagged from its pooled offset': { max: 0.05 } },
    pooled: ['pooled offset intervals cover 0 (every reviewer)'],
  },
];

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
