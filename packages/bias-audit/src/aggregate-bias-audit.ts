import { BiasAuditError } from './bias-audit-error.js';
import type { AggregateBiasAuditOptions } from './aggregate-bias-audit-options.js';
import { DEFAULT_BIAS_MARGINS } from './aggregate-bias-audit-options.js';
import type {
  BiasAggregateReport,
  BiasMargins,
  LengthBiasReport,
  PositionTestReport,
  ReviewerProfile,
  SessionAnomaly,
  TrendReport,
} from './bias-aggregate-report.js';
import type { BiasColumns } from './bias-columns.js';
import type { BiasMetricReport } from './bias-metric-report.js';
import type { BiasObservation } from './bias-observation.js';
import { confidenceTier } from './confidence-tier.js';
import type { BiasSessionSummaries } from './bias-session-summary.js';
import { assertBiasSessionSummaries, looksLikeSessionSummaries } from './bias-session-summary.js';
import type { ScoreModelEstimate } from './fit-score-model.js';
import type { AuditSessions } from './internal/audit-sessions.js';
import { sessionsFromColumns, sessionsFromSummaries } from './internal/audit-sessions.js';
import { assertLevel } from './internal/assert.js';
import { biasFlags } from './internal/bias-flags.js';
import type { HypothesisFamily, MarginHypothesis } from './internal/bias-flags.js';
import { blockPermutationTest } from './internal/block-permutation-test.js';
import { changePoints } from './internal/change-points.js';
import { indicatorTrend } from './internal/indicator-trends.js';
import type { SessionTimeline } from './internal/indicator-trends.js';
import { isArrayValue } from './internal/is-array-value.js';
import { createFigureFactory } from './internal/metric-figure.js';
import { usesWildBootstrap } from './internal/length-figures.js';
import { positionWaldTest } from './internal/position-wald-test.js';
import { reviewerScoreSpread } from './internal/reviewer-score-spread.js';
import { sessionAnomalies } from './internal/session-anomalies.js';
import type { PositionBlocks } from './internal/session-indicators.js';
import { criticalT, tSummary } from './internal/t-summary.js';
import { assertColumnPositions, windowObservations } from './internal/window-observations.js';
import { createSeededRandom } from './seeded-random.js';

/** Below this many sessions the position tests permute by default; from it on the Wald F test is trusted. */
const PERMUTE_BELOW_SESSIONS = 100;

function invalidOption(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_OPTION', message });
}

function checkCount(value: number, name: string, limits: { allowInfinite: boolean; min: number }): number {
  const { allowInfinite, min } = limits;
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value < min ||
    (!Number.isInteger(value) && !(allowInfinite && value === Number.POSITIVE_INFINITY))
  ) {
    throw invalidOption(
      `${name} must be an integer of at least ${min}${allowInfinite ? ' (or Infinity)' : ''}, got ${String(value)}.`,
    );
  }
  return value;
}

function resolveMargins(given: Partial<BiasMargins> | undefined): BiasMargins {
  const margins: BiasMargins = { ...DEFAULT_BIAS_MARGINS };
  if (given === undefined) return margins;
  if (typeof given !== 'object' || given === null)
    throw invalidOption('margins must be an object such as { reviewerOffset: 0.5 }.');
  for (const [name, value] of Object.entries(given)) {
    if (!(name in margins))
      throw invalidOption(`margins.${name} is not a family; use one of ${Object.keys(margins).join(', ')}.`);
    if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value))
      throw invalidOption(
        `margins.${name} must be a finite number of at least 0 (in the figure's own units), got ${String(value)}.`,
      );
    margins[name as keyof BiasMargins] = value;
  }
  return margins;
}

function isSummaries(input: unknown): input is BiasSessionSummaries {
  return !isColumns(input) && looksLikeSessionSummaries(input);
}

function isColumns(input: unknown): input is BiasColumns {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    (input as BiasColumns).sessionStart instanceof Uint32Array
  );
}

/**
 * Cross-session bias aggregation (ADR-018 phases 2 and 3, the estimands of issue 13). Reviewers' offsets,
 * self-preference and affinity come from one score model fitted within answers (`fitScoreModel`), so an
 * answer's quality and length cancel and one harsh reviewer is measured against the typical reviewer
 * without making anyone else look generous; the length slope is read between a session's answers, the
 * between-session association beside it as a figure; position effects are within-reviewer centred scores
 * across sessions, valid with shared orders. Every figure carries N, estimate, interval, window and tier.
 * A flag needs its interval beyond the family's margin and its test to survive weighted Holm across
 * families, from `minSessions` sessions on.
 *
 * `input`: observations (validated, then windowed by the options), the columns of `readBiasRecords` (already
 * windowed: taken whole), or per-session summaries (`summarizeBiasSessions`, merged across stores by
 * `mergeBiasSessionSummaries`: taken whole too), which give the report of the records they summarise.
 */
export function aggregateBiasAudit(
  input: readonly BiasObservation[] | BiasColumns | BiasSessionSummaries,
  options: AggregateBiasAuditOptions = {},
): BiasAggregateReport {
  if (!isArrayValue(input) && !isColumns(input) && !isSummaries(input)) {
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message:
        'aggregateBiasAudit takes an array of BiasObservation records, the columns of readBiasRecords, or the summaries of summarizeBiasSessions.',
    });
  }
  const nowMs =
    options.now === undefined
      ? Date.now()
      : options.now instanceof Date
        ? options.now.getTime()
        : Date.parse(options.now);
  if (Number.isNaN(nowMs)) throw invalidOption(`now must be a Date or an ISO 8601 string, got ${String(options.now)}.`);
  const maxSessions = checkCount(options.maxSessions ?? 100, 'maxSessions', { allowInfinite: true, min: 1 });
  const maxDays = options.maxDays ?? 30;
  if (typeof maxDays !== 'number' || !(maxDays > 0))
    throw invalidOption(`maxDays must be a positive number of days (or Infinity), got ${String(maxDays)}.`);
  const minSessions = checkCount(options.minSessions ?? 20, 'minSessions', { allowInfinite: false, min: 1 });
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const alpha = options.alpha ?? 0.05;
  assertLevel(alpha, 'alpha');
  const seed = options.seed ?? 1;
  createSeededRandom(seed); // validates the seed
  const margins = resolveMargins(options.margins);
  if (options.resamples !== undefined) {
    checkCount(options.resamples, 'resamples', { allowInfinite: false, min: 0 });
    if (options.resamples > 0 && options.resamples < 20)
      throw invalidOption(`resamples must be 0 (the asymptotic test) or at least 20, got ${options.resamples}.`);
  }
  const trendWindow = checkCount(options.trendWindowSessions ?? 10, 'trendWindowSessions', {
    allowInfinite: false,
    min: 2,
  });
  const anomalyThreshold = options.anomalyThreshold ?? 3.5;
  if (typeof anomalyThreshold !== 'number' || !(anomalyThreshold > 0))
    throw invalidOption(`anomalyThreshold must be a positive number of robust SDs, got ${String(anomalyThreshold)}.`);

  // 1. The window.
  const filters = {
    ...(options.configVersion === undefined ? {} : { configVersion: options.configVersion }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.queryCategory === undefined ? {} : { queryCategory: options.queryCategory }),
  };
  const whole = { filteredOut: 0, outsideWindow: 0, beyondMaxSessions: 0 };
  let frame: AuditSessions;
  let excluded = whole;
  // What the window block reports as applied: summaries are taken whole, so no limit was.
  let applied = { maxSessions, maxDays };
  if (isSummaries(input)) {
    if (Object.keys(filters).length > 0 || options.maxSessions !== undefined || options.maxDays !== undefined) {
      throw invalidOption(
        'maxSessions, maxDays, configVersion, model and queryCategory choose records: summaries are taken whole, so summarise the records you want instead (summariesWindow labels the window they were chosen by).',
      );
    }
    applied = checkSummariesWindow(options.summariesWindow);
    assertBiasSessionSummaries(input);
    frame = sessionsFromSummaries(input);
  } else if (options.summariesWindow !== undefined) {
    throw invalidOption(
      'summariesWindow labels the window of summaries; for records and columns pass maxSessions and maxDays.',
    );
  } else if (isColumns(input)) {
    assertColumnPositions(input);
    frame = sessionsFromColumns(input);
  } else {
    const windowed = windowObservations(input, { nowMs, maxDays, maxSessions, ...filters });
    frame = sessionsFromColumns(windowed.columns);
    excluded = windowed.excluded;
  }
  const S = frame.sessionIds.length;
  const timeline: SessionTimeline = {
    time: frame.sessionTime,
    iso: (s) => new Date(frame.sessionTime[s]!).toISOString(),
  };
  const windowStart = S > 0 ? timeline.iso(0) : null;
  const windowEnd = S > 0 ? timeline.iso(S - 1) : null;
  const meetsMinimum = S >= minSessions;
  const resamples = options.resamples ?? (S < PERMUTE_BELOW_SESSIONS ? 1000 : 0);
  const notes: string[] = [];
  if (!meetsMinimum)
    notes.push(
      `${S} session(s) in the window, fewer than minSessions = ${minSessions}: figures are shown per their tier, but no bias flag is raised.`,
    );

  const figure = createFigureFactory({ level, windowStart, windowEnd });
  const fromT = (spec: { metric: string; values: ArrayLike<number>; margin?: number }): BiasMetricReport => {
    const summary = tSummary(spec.values, level);
    const base = {
      metric: spec.metric,
      sessions: summary.n,
      sampleSize: spec.values.length,
      unit: 'sessions' as const,
      intervalMethod: 't_across_sessions',
      ...(spec.margin === undefined ? {} : { margin: spec.margin }),
    };
    return summary.computable
      ? figure({
          ...base,
          estimate: summary.estimate,
          lower: summary.lower,
          upper: summary.upper,
          pValue: summary.pValue,
        })
      : figure({
          ...base,
          estimate: summary.estimate,
          lower: null,
          upper: null,
          pValue: null,
          note: `Not computable: ${summary.reason}.`,
        });
  };
  /** A figure of the score model; when it cannot be estimated, `why` says so and `sessions` (default: the window's) sets its tier. */
  const fromModel = (spec: {
    metric: string;
    fit: ScoreModelEstimate | null;
    unit: BiasMetricReport['unit'];
    intervalMethod: string;
    margin?: number;
    why?: string;
    sessions?: number;
  }): BiasMetricReport => {
    const { fit } = spec;
    const margin = spec.margin === undefined ? {} : { margin: spec.margin };
    return fit === null
      ? figure({
          metric: spec.metric,
          sessions: spec.sessions ?? S,
          sampleSize: 0,
          unit: spec.unit,
          intervalMethod: spec.intervalMethod,
          estimate: null,
          lower: null,
          upper: null,
          pValue: null,
          note: `Not computable: ${spec.why ?? 'the score model cannot estimate it from these sessions'}.`,
          ...margin,
        })
      : figure({
          metric: spec.metric,
          sessions: fit.sessions,
          sampleSize: fit.sampleSize,
          unit: spec.unit,
          intervalMethod: spec.intervalMethod,
          estimate: fit.estimate,
          lower: fit.lower,
          upper: fit.upper,
          pValue: fit.pValue,
          ...margin,
        });
  };
  /** The hypothesis "within ±margin" of a shown figure whose t (SE, df) is known. */
  const hypothesis = (spec: Omit<MarginHypothesis, 'estimate'>): MarginHypothesis[] =>
    spec.figure.estimate === null || spec.figure.ciLower === null || !(spec.df >= 1)
      ? []
      : [{ ...spec, estimate: spec.figure.estimate }];
  /** The same for a figure from `fromT` (t across sessions, df = sessions − 1): its SE read off its interval. */
  const tHypothesis = (spec: {
    code: MarginHypothesis['code'];
    subject: string | null;
    figure: BiasMetricReport;
    margin: number;
  }): MarginHypothesis[] => {
    const f = spec.figure;
    if (f.estimate === null || f.ciLower === null || f.ciUpper === null || f.sessions < 2) return [];
    const df = f.sessions - 1;
    return hypothesis({ ...spec, standardError: (f.ciUpper - f.ciLower) / (2 * criticalT(level, df)), df });
  };

  // 2. The score model, and the per-session indicators.
  const fit = frame.fit(level);
  const indicators = frame.indicators({ blocks: resamples > 0 });
  const families: HypothesisFamily[] = [];

  // 3. Length.
  const slopeFit = fit.lengthSlope;
  const slope = fromModel({
    metric: 'length_slope_per_1000_chars',
    fit: slopeFit,
    unit: 'answers',
    intervalMethod: 'cluster_cr2_satterthwaite_t',
    margin: margins.lengthSlope,
    why: 'needs 2 or more sessions with answers of different lengths',
  });
  const correlation = fromModel({
    metric: 'length_score_correlation',
    fit: fit.lengthCorrelation,
    unit: 'answers',
    intervalMethod: 'cluster_delta_fisher_z_t',
    why: 'needs a within-session length slope with lengths and levels that vary',
  });
  const betweenSessions = fromModel({
    metric: 'length_between_sessions_per_1000_chars',
    fit: fit.betweenSessionLengthSlope,
    unit: 'sessions',
    intervalMethod:
      fit.betweenSessionLengthSlope !== null && usesWildBootstrap(fit.betweenSessionLengthSlope.sessions)
        ? 'ols_hc2_restricted_wild_bootstrap'
        : 'ols_hc2_bell_mccaffrey_t',
    why: 'needs 3 or more sessions whose mean answer lengths differ',
  });
  if (betweenSessions.estimate !== null) {
    betweenSessions.note = [
      betweenSessions.note,
      'An association between sessions (questions with long answers may simply score differently), not a bias of the reviewers: never flagged.',
    ]
      .filter(Boolean)
      .join(' ');
  }
  const length: LengthBiasReport = { slope, correlation, betweenSessions };
  if (slopeFit !== null)
    families.push({
      family: 'length',
      hypotheses: hypothesis({
        code: 'LENGTH_BIAS_DETECTED',
        subject: null,
        figure: slope,
        standardError: slopeFit.standardError,
        df: slopeFit.df,
        margin: margins.lengthSlope,
      }),
    });

  // 4. Position.
  const positions = [...indicators.positionValues.keys()].sort((a, b) => a - b);
  const effects = positions.map((p) =>
    fromT({ metric: `position_effect[${p}]`, values: indicators.positionValues.get(p)!, margin: margins.position }),
  );
  const rankPositions = [...indicators.rankValues.keys()].sort((a, b) => a - b);
  const rankEffects = rankPositions.map((p) =>
    fromT({
      metric: `rank_position_effect[${p}]`,
      values: indicators.rankValues.get(p)!,
      margin: margins.rankPosition,
    }),
  );
  const primacy = fromT({ metric: 'primacy_effect', values: indicators.primacyValues });
  const recency = fromT({ metric: 'recency_effect', values: indicators.recencyValues });
  const positionTests: PositionTestReport[] = [];
  const testPositions = (spec: {
    basis: PositionTestReport['basis'];
    values: Map<number, Float64Array>;
    sessionsOf: Map<number, Int32Array>;
    blocks: PositionBlocks;
    sessions: number;
    offset: number;
  }): void => {
    if (spec.sessions < 2) return;
    if (resamples > 0 && spec.blocks.starts.length > 0) {
      const result = blockPermutationTest({
        values: Float64Array.from(spec.blocks.values),
        labels: Int32Array.from(spec.blocks.labels),
        blockStarts: spec.blocks.starts,
        blockGroups: spec.blocks.groups,
        permutations: resamples,
        seed: seed + spec.offset,
      });
      positionTests.push({
        basis: spec.basis,
        method: 'permutation',
        statistic: result.statistic,
        pValue: result.pValue,
        permutations: result.permutations,
        sessions: spec.sessions,
      });
      return;
    }
    const wald = positionWaldTest(spec.values, spec.sessionsOf);
    if (wald !== null)
      positionTests.push({
        basis: spec.basis,
        method: 'wald_f',
        statistic: wald.statistic,
        pValue: wald.pValue,
        permutations: 0,
        sessions: wald.sessions,
      });
  };
  testPositions({
    basis: 'scores',
    values: indicators.positionValues,
    sessionsOf: indicators.positionSessions,
    blocks: indicators.scoreBlocks,
    sessions: indicators.positionedScoreSessions,
    offset: 202,
  });
  if (indicators.rankedSessions >= 2) {
    testPositions({
      basis: 'ranks',
      values: indicators.rankValues,
      sessionsOf: indicators.rankSessions,
      blocks: indicators.rankBlocks,
      sessions: indicators.rankedSessions,
      offset: 303,
    });
  }
  const positionHypotheses = [
    ...effects.flatMap((f) =>
      tHypothesis({ code: 'POSITION_BIAS_DETECTED', subject: null, figure: f, margin: margins.position }),
    ),
    // Rank points speak for position only where no score does (reviewers that rank without scoring).
    ...(indicators.rankedSessions >= 2
      ? rankEffects.flatMap((f) =>
          tHypothesis({ code: 'POSITION_BIAS_DETECTED', subject: null, figure: f, margin: margins.rankPosition }),
        )
      : []),
  ];
  families.push({ family: 'position', hypotheses: positionHypotheses });

  // 5. Reviewers.
  const offsetWhy = 'needs answers scored by this reviewer and another in 2 or more sessions';
  const reviewers: ReviewerProfile[] = [];
  const calibration: MarginHypothesis[] = [];
  const offsetBySubject = new Map(fit.reviewerOffsets.map((o) => [o.subject, o]));
  const byName = frame.models
    .map((name, model) => ({ name, model }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  byName.forEach(({ name: reviewer, model }) => {
    const moments = indicators.reviewerMoments[model];
    if (moments === null || moments === undefined) return;
    const offsetFit = offsetBySubject.get(reviewer) ?? null;
    const offset = fromModel({
      metric: `reviewer_offset[${reviewer}]`,
      fit: offsetFit,
      unit: 'scores',
      intervalMethod: 'cluster_cr1_t',
      margin: margins.reviewerOffset,
      why: offsetWhy,
      sessions: moments.sessions,
    });
    const sd = fit.residualSd;
    const z =
      offsetFit === null
        ? fromModel({
            metric: `reviewer_z[${reviewer}]`,
            fit: null,
            unit: 'scores',
            intervalMethod: 'cluster_cr1_t_per_residual_sd',
            why: offsetWhy,
            sessions: moments.sessions,
          })
        : sd === null || !(sd > 0)
          ? figure({
              metric: `reviewer_z[${reviewer}]`,
              sessions: offsetFit.sessions,
              sampleSize: offsetFit.sampleSize,
              unit: 'scores',
              intervalMethod: 'cluster_cr1_t_per_residual_sd',
              estimate: null,
              lower: null,
              upper: null,
              pValue: null,
              note: 'Not computable: the scores fit the model exactly (no spread within answers), so there is no score SD to measure the offset in.',
            })
          : fromModel({
              metric: `reviewer_z[${reviewer}]`,
              fit: {
                ...offsetFit,
                estimate: offsetFit.estimate / sd,
                lower: offsetFit.lower / sd,
                upper: offsetFit.upper / sd,
                standardError: offsetFit.standardError / sd,
              },
              unit: 'scores',
              intervalMethod: 'cluster_cr1_t_per_residual_sd',
              why: offsetWhy,
            });
    const spread = reviewerScoreSpread(moments, level);
    const common = { sessions: moments.sessions, sampleSize: moments.n, unit: 'scores' as const };
    const mean = figure({
      metric: `reviewer_mean[${reviewer}]`,
      ...common,
      intervalMethod: 'cluster_ratio_t',
      estimate: spread?.mean.estimate ?? (moments.n > 0 ? moments.a / moments.n : null),
      lower: spread?.mean.lower ?? null,
      upper: spread?.mean.upper ?? null,
      ...(spread === null ? { note: 'Not computable: needs scores from 2 or more sessions.' } : {}),
    });
    const standardDeviation = figure({
      metric: `reviewer_sd[${reviewer}]`,
      ...common,
      intervalMethod: 'cluster_delta_log_t',
      estimate: spread?.standardDeviation?.estimate ?? null,
      lower: spread?.standardDeviation?.lower ?? null,
      upper: spread?.standardDeviation?.upper ?? null,
      ...(spread?.standardDeviation ? {} : { note: 'Not computable: needs differing scores from 2 or more sessions.' }),
    });
    reviewers.push({ reviewer, offset, z, mean, standardDeviation, centreWeight: offsetFit?.weight ?? 0 });
    if (offsetFit !== null) {
      calibration.push(
        ...hypothesis({
          code: offsetFit.estimate < 0 ? 'HARSH_REVIEWER' : 'GENEROUS_REVIEWER',
          subject: reviewer,
          figure: offset,
          standardError: offsetFit.standardError,
          df: offsetFit.df,
          margin: margins.reviewerOffset,
        }),
      );
    }
  });
  families.push({ family: 'reviewer_calibration', hypotheses: calibration });

  // 6. Self-preference, affinity, anchoring.
  const bySubject = (a: { subject: string }, b: { subject: string }): number =>
    a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0;
  fit.selfPreference.sort(bySubject);
  fit.affinity.sort(bySubject);
  const selfPreference = fit.selfPreference.map((e) =>
    fromModel({
      metric: `self_preference[${e.subject}]`,
      fit: e,
      unit: 'scores',
      intervalMethod: 'cluster_cr1_t',
      margin: margins.selfPreference,
    }),
  );
  families.push({
    family: 'self_preference',
    hypotheses: fit.selfPreference.flatMap((e, j) =>
      hypothesis({
        code: 'SELF_PREFERENCE',
        subject: e.subject,
        figure: selfPreference[j]!,
        standardError: e.standardError,
        df: e.df,
        margin: margins.selfPreference,
      }),
    ),
  });
  const affinity = fit.affinity.map((e) =>
    fromModel({
      metric: `affinity[${e.subject}]`,
      fit: e,
      unit: 'scores',
      intervalMethod: 'cluster_influence_t',
      margin: margins.affinity,
    }),
  );
  families.push({
    family: 'affinity',
    hypotheses: fit.affinity.flatMap((e, j) =>
      hypothesis({
        code: 'REVIEWER_AFFINITY',
        subject: e.subject,
        figure: affinity[j]!,
        standardError: e.standardError,
        df: e.df,
        margin: margins.affinity,
      }),
    ),
  });
  const anchoring = fromT({ metric: 'anchoring', values: indicators.anchoringValues, margin: margins.anchoring });
  families.push({
    family: 'anchoring',
    hypotheses: tHypothesis({ code: 'ANCHORING', subject: null, figure: anchoring, margin: margins.anchoring }),
  });

  // 7. Trends, anomalies, change points.
  const lengthSeries = indicators.lengthR;
  const trends: TrendReport[] =
    S === 0
      ? []
      : [
          { indicator: 'length_score_correlation' as const, series: lengthSeries },
          { indicator: 'position_spread' as const, series: indicators.positionSpread },
        ].map((t) =>
          indicatorTrend({
            ...t,
            lengthN: indicators.lengthN,
            timeline,
            windowSessions: trendWindow,
            level,
            figure,
            fromT,
          }),
        );
  const anomalies: SessionAnomaly[] = [
    { indicator: 'length_score_correlation' as const, series: lengthSeries },
    { indicator: 'position_spread' as const, series: indicators.positionSpread },
    { indicator: 'mean_score' as const, series: indicators.meanScores },
  ].flatMap((a) => sessionAnomalies({ ...a, sessionIds: frame.sessionIds, timeline, threshold: anomalyThreshold }));
  const changes = changePoints({ indicators, models: frame.models, sessionIds: frame.sessionIds, timeline });
  if (changes.length > 0)
    notes.push(
      `${changes.length} change point(s) in the window: consider filtering by configVersion or model, since pooling across a model change mixes two councils.`,
    );
  if (indicators.scoredRecords === 0 && S > 0)
    notes.push('No observation in the window carries a score; only rank-based figures are available.');

  // 8. Flags.
  const { tests, flags } = biasFlags(families, { alpha, meetsMinimum });

  return {
    window: {
      now: new Date(nowMs).toISOString(),
      ...applied,
      start: windowStart,
      end: windowEnd,
      sessions: S,
      observations: frame.observations,
      excluded,
    },
    confidence: confidenceTier(S),
    minSessions,
    meetsMinimum,
    level,
    alpha,
    margins,
    resamples,
    length,
    position: { effects, primacy, recency, rankEffects, tests: positionTests },
    reviewers,
    selfPreference,
    affinity,
    anchoring,
    trends,
    anomalies,
    changePoints: changes,
    tests,
    flags,
    notes,
  };
}

/** The window summaries were chosen by (`summariesWindow`), checked: each a positive number or Infinity. */
function checkSummariesWindow(window: AggregateBiasAuditOptions['summariesWindow']): {
  maxSessions: number;
  maxDays: number;
} {
  if (window === undefined) return { maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY };
  const { maxSessions, maxDays } = window;
  if (
    !(maxSessions === Number.POSITIVE_INFINITY || (Number.isInteger(maxSessions) && maxSessions >= 1)) ||
    typeof maxDays !== 'number' ||
    !(maxDays > 0)
  ) {
    throw invalidOption(
      `summariesWindow must be { maxSessions: a whole number ≥ 1 or Infinity, maxDays: a positive number or Infinity }, got ${JSON.stringify(window)}.`,
    );
  }
  return { maxSessions, maxDays };
}
