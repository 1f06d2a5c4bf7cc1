import type { ReviewerDriftPowerReport, ReviewerDriftReport } from '../bias-aggregate-report.js';
import type { BiasColumns } from '../bias-columns.js';
import { confidenceTier } from '../confidence-tier.js';
import type { ScoreModelEffect, ScoreModelFit } from '../fit-score-model.js';
import { fitScoreModel } from '../fit-score-model.js';
import { normalQuantile } from '../normal-distribution.js';
import type { SessionTimeline } from './indicator-trends.js';
import type { ReportFigures } from './report-figures.js';
import { createReportFigures } from './report-figures.js';
import { reviewerDrifts, reviewerSeries, splitDriftingReviewers, stepAt } from './reviewer-drift.js';
import type { ReviewerDriftFinding, ReviewerSeries } from './reviewer-drift.js';
import { criticalT } from './t-summary.js';

/** What a drifting reviewer's profile shows: its latest period's offset (with that period's window) and the periods. */
export interface DriftedReviewer {
  /** Figure builders whose window is the latest period's. */
  latestFigures: ReportFigures;
  note: string;
  drift: ReviewerDriftReport;
}

const round = (x: number | null): string => (x === null ? 'not computable' : (Math.round(x * 100) / 100).toFixed(2));

/**
 * The change figure (`reviewer_drift[…]`): the step of the reviewer's latest change, its latest period's mean gap
 * less the period's before, with its Welch t interval at the report's level over those two periods' sessions
 * (`sessions`, window indices, oldest first); its p is the drift test's.
 */
function changeFigure(spec: {
  name: string;
  change: ReviewerDriftFinding['change'];
  pValue: number;
  sessions: ArrayLike<number>;
  level: number;
  timeline: SessionTimeline;
  margin: number;
}): ReviewerDriftReport['change'] {
  const { sessions, level, timeline } = spec;
  const n = sessions.length;
  const { estimate, standardError, df } = spec.change;
  const half = standardError > 0 ? criticalT(level, df) * standardError : 0;
  const { figure } = createReportFigures({
    level,
    sessions: n,
    windowStart: timeline.iso(sessions[0]!),
    windowEnd: timeline.iso(sessions[n - 1]!),
  });
  return figure({
    metric: `reviewer_drift[${spec.name}]`,
    sessions: n,
    sampleSize: n,
    unit: 'sessions',
    intervalMethod: 'welch_t_between_periods',
    estimate,
    lower: estimate - half,
    upper: estimate + half,
    pValue: spec.pValue,
    margin: spec.margin,
  });
}

/** The config version of a period of a reviewer's series, where it has one throughout (1 + index, 0 none). */
function periodConfig(configs: Int32Array, versions: readonly string[]): string | undefined {
  const first = configs[0];
  if (first === undefined || first === 0 || configs.some((c) => c !== first)) return undefined;
  return versions[first - 1];
}

/**
 * Part of step 5 of `aggregateBiasAudit`: each reviewer's test of a change in its offset within the window
 * (`reviewerDrifts`). Where one is found, the score model is fitted again with that reviewer's latest period as a
 * member of its own, so both periods' offsets are measured against one typical reviewer; every reviewer's offset is
 * then read from that fit (the drifting one's from its latest period). Null when no reviewer drifted (the report is
 * then exactly what it was without the test), when the refit cannot place every reviewer, or when the report was
 * built from summaries (no records to test).
 */
export function reviewerDriftReport(spec: {
  columns: BiasColumns | null;
  fit: ScoreModelFit;
  alpha: number;
  level: number;
  seed: number;
  margin: number;
  timeline: SessionTimeline;
}): { fit: ScoreModelFit; drifted: Map<string, DriftedReviewer>; notes: string[] } | null {
  const { columns, level, timeline } = spec;
  if (columns === null) return null;
  // Each reviewer's offset over the window, so the series do not step where members come and go.
  const pooled = pooledOffsets(columns, spec.fit);
  const levelled = levelledSeries(columns, spec.fit, pooled);
  const found = reviewerDrifts(columns, { alpha: spec.alpha, seed: spec.seed, margin: spec.margin, levelled }, pooled);
  if (found.length === 0) return null;
  const refit = fitScoreModel(splitDriftingReviewers(columns, found), { level });
  const bySubject = new Map(refit.reviewerOffsets.map((o) => [o.subject, o]));
  // The sessions and config versions of each reviewer's series (the same levelled or not).
  const series = levelled;
  const drifted = new Map<string, DriftedReviewer>();
  const notes: string[] = [];
  const offsets: ScoreModelEffect[] = [];
  const latestName = (j: number): string => `${columns.models[found[j]!.model]!}\u0000latest${j}`;
  // Per drifting reviewer, its changes oldest first (with their index in `found`, which names the member fitted
  // for the period each begins); its first in `found` is the reviewer's own test.
  const byModel = new Map<number, { finding: ReviewerDriftFinding; j: number }[]>();
  found.forEach((finding, j) => {
    const list = byModel.get(finding.model);
    if (list === undefined) byModel.set(finding.model, [{ finding, j }]);
    else list.push({ finding, j });
  });
  const own = new Map([...byModel].map(([model, list]) => [model, list[0]!.finding]));
  for (const list of byModel.values()) list.sort((a, b) => a.finding.fromSession - b.finding.fromSession);
  for (const offset of refit.reviewerOffsets) {
    if (offset.subject.includes('\u0000')) continue;
    const list = byModel.get(columns.models.indexOf(offset.subject));
    if (list === undefined) {
      offsets.push(offset);
      continue;
    }
    const latest = bySubject.get(latestName(list.at(-1)!.j));
    if (latest !== undefined) offsets.push({ ...latest, subject: offset.subject });
  }
  for (const [model, changes] of byModel) {
    const name = columns.models[model]!;
    const f = own.get(model)!;
    const sessions = series[model]!.sessions;
    const configs = series[model]!.configs;
    const splits = changes.map((c) => sessions.indexOf(c.finding.fromSession));
    const fits = [bySubject.get(name) ?? null, ...changes.map((c) => bySubject.get(latestName(c.j)) ?? null)];
    const latest = fits.at(-1)!;
    if (latest === null) continue;
    const bounds = [0, ...splits, sessions.length];
    const at = (k: number): string => timeline.iso(sessions[bounds[k]!]!);
    const periods = fits.map((fit, k) => {
      const from = bounds[k]!;
      const to = bounds[k + 1]!;
      const start = timeline.iso(sessions[from]!);
      const end = timeline.iso(sessions[to - 1]!);
      const figures = createReportFigures({ level, sessions: to - from, windowStart: start, windowEnd: end });
      const cause = k === 0 ? changes[0]!.finding.cause : changes[k - 1]!.finding.cause;
      const configVersion =
        cause === 'config_version' ? periodConfig(configs.slice(from, to), columns.configVersions) : undefined;
      const label =
        k === 0
          ? ` before ${at(1)}`
          : k === fits.length - 1
            ? ` since ${at(k)}`
            : ` since ${at(k)} before ${at(k + 1)}`;
      return {
        figures,
        period: {
          start,
          end,
          sessions: to - from,
          ...(configVersion === undefined ? {} : { configVersion }),
          offset: figures.fromModel({
            metric: `reviewer_offset[${name}]${label}`,
            fit,
            unit: 'scores',
            intervalMethod: 'cluster_cr1_t',
            why: 'needs answers scored by this reviewer and another in 2 or more sessions of the period',
            sessions: to - from,
          }),
        },
      };
    });
    const last = changes.at(-1)!.finding;
    const q = splits.length;
    const change =
      q === 1
        ? last.change
        : // The series against each reviewer's offset over the window, as the test read them (for a step between
          // periods that a later split changed).
          stepAt(levelled[model]!.deviations, { from: bounds[q - 1]!, split: bounds[q]!, to: bounds[q + 1]! });
    const before = fits.at(-2) ?? null;
    const since = { sessionId: columns.sessionIds[last.fromSession]!, timestamp: timeline.iso(last.fromSession) };
    const how =
      q > 1 ? `${q} changes` : f.cause === 'config_version' ? 'at a config-version change' : 'one change point';
    const note = `The offset changed within the window (${how}, p ${f.pValue.toPrecision(2)}): offset since ${since.timestamp}: ${round(latest.estimate)}; before: ${round(before?.estimate ?? null)}. The headline offset is the latest period's.`;
    notes.push(`${name}: ${note}`);
    drifted.set(name, {
      latestFigures: periods.at(-1)!.figures,
      note,
      drift: {
        cause: f.cause,
        method: f.method,
        statistic: f.statistic,
        pValue: f.pValue,
        adjustedPValue: f.adjustedPValue,
        change: changeFigure({
          name,
          change,
          pValue: f.pValue,
          sessions: sessions.slice(bounds[q - 1], bounds[q + 1]),
          level,
          timeline,
          margin: spec.margin,
        }),
        since,
        periods: periods.map((p) => p.period),
      },
    });
  }
  // Where the split leaves the periods unconnected (every reviewer present at the change split there, so no one
  // links the two periods' scales), the refit cannot place them: the report stays as it was without the test.
  if (drifted.size < byModel.size || offsets.length < spec.fit.reviewerOffsets.length) return null;
  return { fit: { ...spec.fit, reviewerOffsets: offsets }, drifted, notes };
}

/** Each reviewer's offset over the window (the fit's), by model; 0 for a member the fit has no offset for. */
function pooledOffsets(columns: BiasColumns, fit: ScoreModelFit): Float64Array {
  const pooled = new Float64Array(columns.models.length);
  const index = new Map(columns.models.map((name, m) => [name, m]));
  for (const o of fit.reviewerOffsets) {
    const m = index.get(o.subject);
    if (m !== undefined) pooled[m] = o.estimate;
  }
  return pooled;
}

/**
 * The reviewers' series levelled by their offsets over the window (`reviewerSeries(columns, [], pooled)`), which the
 * drift test reads first and the blind spots read again: `reviewerDriftReport` forms them and `reviewerDriftPower`,
 * asked next of the same columns and fit, takes them (a second grouping of every record by answer was a tenth of the
 * statistics' cold time). Kept by columns, and dropped once taken, so they live no longer than before.
 */
const formedSeries = new WeakMap<BiasColumns, { fit: ScoreModelFit; series: ReviewerSeries[] }>();

function levelledSeries(columns: BiasColumns, fit: ScoreModelFit, pooled: Float64Array): ReviewerSeries[] {
  const series = reviewerSeries(columns, [], pooled);
  formedSeries.set(columns, { fit, series });
  return series;
}

/** The series `levelledSeries` formed for these columns and this fit, once; undefined when there are none. */
function takeLevelledSeries(columns: BiasColumns, fit: ScoreModelFit): ReviewerSeries[] | undefined {
  const formed = formedSeries.get(columns);
  formedSeries.delete(columns);
  return formed !== undefined && formed.fit === fit ? formed.series : undefined;
}

/** The drift test needs this many sessions in a reviewer's series (10 each side of a split). */
const TESTED_FROM = 20;
/** The power at which the drift test's blind spot is stated. */
const POWER = 0.8;

/**
 * Per reviewer whose series the drift test reads (20 sessions or more; `offsets` by model, each reviewer's offset
 * over the window, as the test levels the series), the change of its offset that the test would find with 80% power
 * (`ReviewerDriftPowerReport`): at the even split k = ⌊n/2⌋ of its n sessions, the step's Welch standard error SE from
 * the spread within the two halves (a change at the split does not inflate it), then D = max((z(1 − α/2m) + z(0.8))·SE,
 * margin + (t(1 − α/2, df) + z(0.8))·SE): the Holm step a lone change must pass first (α/m, m the reviewers tested),
 * and the step's interval at level 1 − α beyond ±margin that a change found must also meet (normal power
 * approximation; the scan's search over splits makes the test a little weaker still, so D is if anything small).
 * Keyed by model index; a series without spread within its halves has no entry (any change beyond the margin shows).
 */
export function driftBlindSpots(
  columns: BiasColumns,
  rule: {
    alpha: number;
    margin: number;
    /** `reviewerSeries(columns, [], offsets)`, where the caller has them already. */
    levelled?: readonly ReviewerSeries[] | undefined;
  },
  offsets?: ArrayLike<number>,
): Map<number, { sessions: number; sessionsPerSide: number; standardError: number; undetectableBelow: number }> {
  const { alpha, margin } = rule;
  const series = rule.levelled ?? reviewerSeries(columns, [], offsets);
  const tested = series.filter((x) => x.deviations.length >= TESTED_FROM);
  const out = new Map<
    number,
    { sessions: number; sessionsPerSide: number; standardError: number; undetectableBelow: number }
  >();
  const m = tested.length;
  const zPower = normalQuantile(POWER);
  for (const x of tested) {
    const n = x.deviations.length;
    const split = Math.floor(n / 2);
    const { standardError, df } = stepAt(Array.from(x.deviations), { from: 0, split, to: n });
    if (!(standardError > 0)) continue;
    const holm = (normalQuantile(1 - alpha / (2 * m)) + zPower) * standardError;
    const beyond = margin + (criticalT(1 - alpha, df) + zPower) * standardError;
    out.set(x.model, { sessions: n, sessionsPerSide: split, standardError, undetectableBelow: Math.max(holm, beyond) });
  }
  return out;
}

/**
 * Part of step 6 of `aggregateBiasAudit`: for each reviewer the drift test read and found no change in (not in
 * `drifted`), its blind spot (`driftBlindSpots`), reported where the window is short for the test and the blind spot
 * matters: each half of the reviewer's series is a preliminary figure by ADR-018's tiers (10–19 sessions, so a series
 * of 20–39), and D exceeds twice the offset margin (a change of D half-way moves the latest period's offset by D/2,
 * beyond the margin, while the headline offset stays the window's pooled one). Windows of 40 sessions or more a
 * reviewer get no entry, so their reports are what they were (issue 29's study: D about 1.1 points at 20 sessions,
 * 0.7 at 50, 0.45 at 300).
 */
export function reviewerDriftPower(spec: {
  columns: BiasColumns | null;
  fit: ScoreModelFit;
  alpha: number;
  margin: number;
  drifted: ReadonlySet<string>;
}): Map<string, ReviewerDriftPowerReport> {
  const { columns, margin } = spec;
  const out = new Map<string, ReviewerDriftPowerReport>();
  if (columns === null) return out;
  const pooled = pooledOffsets(columns, spec.fit);
  const levelled = takeLevelledSeries(columns, spec.fit);
  for (const [model, spot] of driftBlindSpots(columns, { alpha: spec.alpha, margin, levelled }, pooled)) {
    const name = columns.models[model]!;
    if (spec.drifted.has(name) || confidenceTier(spot.sessionsPerSide) !== 'preliminary') continue;
    if (!(spot.undetectableBelow > 2 * margin)) continue;
    const d = (Math.round(spot.undetectableBelow * 100) / 100).toFixed(2);
    out.set(name, {
      ...spot,
      power: POWER,
      note: `No change found; with ${spot.sessions} sessions a change smaller than \u00b1${d} points would likely go unseen.`,
    });
  }
  return out;
}
