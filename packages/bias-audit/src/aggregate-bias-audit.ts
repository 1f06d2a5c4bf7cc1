import { BiasAuditError } from './bias-audit-error.js';
import type { AggregateBiasAuditOptions } from './aggregate-bias-audit-options.js';
import type { BiasAggregateReport } from './bias-aggregate-report.js';
import type { BiasColumns } from './bias-columns.js';
import type { BiasObservation } from './bias-observation.js';
import type { BiasSessionSummaries } from './bias-session-summary.js';
import { confidenceTier } from './confidence-tier.js';
import { resolveAuditSettings } from './internal/audit-settings.js';
import { movedWindowOptionProblem } from './bias-window.js';
import { auditWindow, isColumns, isSummaries } from './internal/audit-window.js';
import { biasFlags, driftFlags } from './internal/bias-flags.js';
import type { SessionTimeline } from './internal/indicator-trends.js';
import { isArrayValue } from './internal/is-array-value.js';
import { lengthReport } from './internal/length-report.js';
import type { PositionIdentifiability } from './internal/position-design.js';
import { lengthTiedToPosition, positionIdentifiability } from './internal/position-design.js';
import { positionReport } from './internal/position-report.js';
import { preferenceReport } from './internal/preference-report.js';
import type { ReportContext } from './internal/report-context.js';
import { createReportFigures } from './internal/report-figures.js';
import { reviewerDriftPower, reviewerDriftReport } from './internal/reviewer-drift-report.js';
import { reviewerProfiles } from './internal/reviewer-profiles.js';
import { timelineReport } from './internal/timeline-report.js';

/** Below this many sessions the position tests permute by default; from it on the Wald F test is trusted. */
const PERMUTE_BELOW_SESSIONS = 100;

/**
 * Cross-session bias aggregation (ADR-018 phases 2 and 3, the estimands of issue 13). Reviewers' offsets,
 * self-preference and affinity come from one score model fitted within answers (`fitScoreModel`), so an
 * answer's quality and length cancel and one harsh reviewer is measured against the typical reviewer
 * without making anyone else look generous; the length slope is read between a session's answers, the
 * between-session association beside it as a figure; position effects are within-reviewer centred scores
 * across sessions, valid with shared orders. Every figure carries N, estimate, interval, window and tier.
 * A flag needs its interval beyond the family's margin, its test to survive weighted Holm across
 * families, and its own figure to have `minSessions` sessions (else the figure's `flagWithheld` says so).
 * Below 10 sessions (ADR-018's insufficient tier) the report carries no estimate, p-value, test or anomaly.
 *
 * `input`: observations (validated, then windowed by `options.window`), the columns of `readBiasRecords` or an
 * engine (windowed by the same window: taken whole, the window labels them), or per-session summaries
 * (`summarizeBiasSessions`, merged across stores by `mergeBiasSessionSummaries`: taken whole too), which give the
 * report of the records they summarise.
 *
 * The steps: 1 the window, 2 the score model and the per-session indicators, 3 length, 4 position, 5 self-preference,
 * affinity and anchoring, 6 reviewers (each tested for drift), 7 trends, anomalies and change points, 8 the flags
 * (REVIEWER_DRIFT for a change found in step 6).
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
  const moved = movedWindowOptionProblem(options);
  if (moved !== undefined)
    throw new BiasAuditError({ code: 'INVALID_OPTION', message: `aggregateBiasAudit: ${moved}` });

  // 1. The window.
  const { frame, excluded, window } = auditWindow(input, options.window);
  const settings = resolveAuditSettings(options);
  const { minSessions, level, alpha, seed, margins } = settings;
  const S = frame.sessionIds.length;
  const timeline: SessionTimeline = {
    time: frame.sessionTime,
    iso: (s) => new Date(frame.sessionTime[s]!).toISOString(),
  };
  const windowStart = S > 0 ? timeline.iso(0) : null;
  const windowEnd = S > 0 ? timeline.iso(S - 1) : null;
  const meetsMinimum = S >= minSessions;
  const resamples = settings.resamples ?? (S < PERMUTE_BELOW_SESSIONS ? 1000 : 0);
  const notes: string[] = [];
  if (!meetsMinimum)
    notes.push(
      `${S} session(s) in the window, fewer than minSessions = ${minSessions}: figures are shown per their tier, but no bias flag is raised.`,
    );

  const figures = createReportFigures({ level, sessions: S, windowStart, windowEnd });

  // Whether the display orders identify position at all (not when fixed by author or sorted by length). Below
  // 10 sessions nothing is estimated anyway (ADR-018's insufficient tier), and the check's shares are figures too.
  const design = frame.positionDesign();
  const checked = confidenceTier(S) !== 'insufficient_data';
  const identifiability: PositionIdentifiability = checked ? positionIdentifiability(design) : { estimable: true };
  const tiedToLength = checked ? lengthTiedToPosition(design) : null;
  // 2. The score model (its length figures not adjusted for position where the orders were sorted by length:
  // `FitScoreModelOptions.lengthWithoutPosition`), and the per-session indicators.
  const context: ReportContext = {
    fit: frame.fit(level, tiedToLength !== null),
    indicators: frame.indicators({ blocks: resamples > 0 }),
    figures,
    margins,
    level,
  };
  // 3. Length (said to follow position where the orders were sorted by length).
  const length = lengthReport(context, { tiedToLength });
  // 4. Position.
  const position = positionReport(context, { resamples, seed, design, identifiability });
  if (!identifiability.estimable)
    notes.push(`Position is not estimable: ${identifiability.reason}. No position figure, test or flag is reported.`);
  // 5. Self-preference, affinity, anchoring (read from the fit over the whole window, before the reviewers).
  const preference = preferenceReport(context, {
    notEstimable: identifiability.estimable ? null : identifiability.reason,
  });
  // 6. Reviewers; a reviewer whose offset changed within the window is shown by its latest period. The drift tests
  // get one family's share of alpha, as each flag family does in the weighted Holm of step 8.
  const flagFamilies =
    [...length.families, position.family, ...preference.families].filter((f) => f.hypotheses.length > 0).length + 1;
  const driftShare = alpha / (flagFamilies + 1);
  const drift = checked
    ? reviewerDriftReport({
        columns: frame.columns,
        fit: context.fit,
        alpha: driftShare,
        level,
        seed,
        margin: margins.reviewerOffset,
        timeline,
      })
    : null;
  if (drift !== null) notes.push(...drift.notes);
  const reviewers = reviewerProfiles(
    drift === null ? context : { ...context, fit: drift.fit },
    frame.models,
    drift?.drifted,
  );
  // A reviewer the drift test found no change in, where the window is too short to see one of a size that matters:
  // the change it would likely have missed (issue 29: at 20 sessions a 1-point change is found in about 2 stores of 3).
  if (checked) {
    const power = reviewerDriftPower({
      columns: frame.columns,
      fit: context.fit,
      alpha: driftShare,
      margin: margins.reviewerOffset,
      drifted: new Set(drift?.drifted.keys() ?? []),
    });
    for (const r of reviewers.reviewers) {
      const p = power.get(r.reviewer);
      if (p !== undefined) r.driftPower = p;
    }
  }
  // 7. Trends, anomalies, change points.
  const timed = timelineReport(context, {
    models: frame.models,
    sessionIds: frame.sessionIds,
    timeline,
    trendWindow: settings.trendWindow,
    anomalyThreshold: settings.anomalyThreshold,
  });
  notes.push(...timed.notes);

  // 8. Flags, each from a figure that meets the minimum on its own; a figure that would have raised one says so.
  const families = [...length.families, position.family, reviewers.family, ...preference.families];
  const { tests, flags, withheld } = biasFlags(families, { alpha, minSessions });
  for (const h of withheld) h.figure.flagWithheld = { code: h.code, minSessions };
  // A reviewer whose offset changed: REVIEWER_DRIFT, from the drift family's own share of alpha (step 6).
  flags.push(...driftFlags(reviewers.reviewers, { alpha, share: driftShare, minSessions }));

  // ADR-018's insufficient tier (fewer than 10 sessions): no metric, p-value or anomaly anywhere in the report,
  // not only in the figures (which withhold theirs by their own tier).
  const insufficient = confidenceTier(S) === 'insufficient_data';

  return {
    window: {
      now: window.now.toISOString(),
      maxSessions: window.sessions,
      maxDays: window.days,
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
    length: length.length,
    position: insufficient ? { ...position.position, tests: [] } : position.position,
    reviewers: insufficient ? reviewers.reviewers.map((r) => ({ ...r, centreWeight: null })) : reviewers.reviewers,
    selfPreference: preference.selfPreference,
    affinity: preference.affinity,
    anchoring: preference.anchoring,
    trends: timed.trends,
    anomalies: insufficient ? [] : timed.anomalies,
    changePoints: timed.changes,
    ...(timed.membershipChanges === undefined ? {} : { membershipChanges: timed.membershipChanges }),
    tests: insufficient ? [] : tests,
    flags,
    notes,
  };
}
