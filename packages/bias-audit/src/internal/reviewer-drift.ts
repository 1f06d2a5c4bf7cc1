import type { BiasColumns } from '../bias-columns.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import type { SeededRandom } from '../create-seeded-sfc32.js';
import { normalCdf } from '../normal-distribution.js';
import { criticalT } from './t-summary.js';

/** One reviewer's within-answer deviations, one value a session it scored in (oldest first). */
export interface ReviewerSeries {
  model: number;
  /** Session indices (into the window's sessions) where the reviewer scored an answer someone else scored too. */
  sessions: Int32Array;
  /** Per such session: the mean over those answers of its score less the mean of the other reviewers' scores. */
  deviations: Float64Array;
  /** Per such session: the reviewer's config version there (1 + index into `configVersions`, 0 none). */
  configs: Int32Array;
}

/** A change taken out of a reviewer's scores: `delta` from `fromSession` (window index) to `toSession` (exclusive; none: the end). */
export interface DriftStep {
  model: number;
  fromSession: number;
  toSession?: number;
  delta: number;
}

/** A reviewer whose offset changed within the window, and where. */
export interface ReviewerDriftFinding {
  model: number;
  /** The first session (window index) of the latest period. */
  fromSession: number;
  /** `config_version`: tested at the reviewer's config-version change(s); `scan`: the best single split. */
  cause: 'config_version' | 'scan';
  method: 'config_break_permutation' | 'cusum_permutation' | 'config_break_z' | 'cusum_kolmogorov';
  statistic: number;
  pValue: number;
  /** Holm-adjusted over the reviewers tested. */
  adjustedPValue: number;
  /** Sessions of the reviewer's series before and from the break. */
  sessionsBefore: number;
  sessionsAfter: number;
  /**
   * The step: the mean of the reviewer's series from the break less its mean before (other reviewers' steps found
   * earlier taken out), with its Welch standard error and Welch–Satterthwaite df (the df are Infinity and the error
   * 0 when neither period's values spread).
   */
  change: { estimate: number; standardError: number; df: number };
}

/** Each period keeps at least this many of the reviewer's sessions (below 10, ADR-018 shows no figure), so 20 to test. */
const MIN_PERIOD = 10;
/** Up to this many sessions the p-value is a permutation test; beyond, the asymptotic bound (accurate there). */
const PERMUTE_UP_TO = 500;
/** Permutations of the reviewer's session order at most. */
const PERMUTATIONS = 9999;
/** Besag and Clifford's sequential stop: permuting ends once this many permuted statistics reach the observed one. */
const EXCEEDANCES = 20;

/**
 * Per reviewer, per session it scored in: how far its scores sit from the other reviewers' scores of the same
 * answers (the within-answer contrast the score model's offset is made of, without the model's position terms),
 * every score first less its reviewer's offset over the whole window (`offsets`, by model; 0 where none), so that
 * who else attended does not move the series: a harsh member present in some sessions only would otherwise make the
 * others' series step where it comes and goes. A change of the reviewer's own offset shows as a step; another
 * reviewer's change moves it by 1/(m − 1) of that change, until that change is taken out (`steps`).
 */
export function reviewerSeries(
  columns: BiasColumns,
  steps: readonly DriftStep[] = [],
  offsets: ArrayLike<number> = new Float64Array(columns.models.length),
): ReviewerSeries[] {
  const M = columns.models.length;
  const S = columns.sessionIds.length;
  const { score, reviewer, candidate, configVersion, sessionStart } = columns;
  // Typed arrays of the exact length (a first pass counts each reviewer's sessions): at 1,000,000 sessions the series
  // are millions of values, and arrays grown by push held about twice their size.
  const sum = new Float64Array(M);
  const count = new Int32Array(M);
  const config = new Int32Array(M);
  const shift = new Float64Array(M);
  /** Per answer (author) of the session: its scored records by other reviewers; the answers in order of first record. */
  const perAnswer = new Int32Array(M);
  const answerOrder = new Int32Array(M);
  const slot = new Int32Array(M);
  /** The session's eligible records grouped by answer (answers in `answerOrder`, each in record order): `from[a]`… */
  let order = new Int32Array(64);
  const from = new Int32Array(M + 1);
  // Self-reviews are left out: self-preference is a figure of its own, not the reviewer's offset.
  const eligible = (i: number): boolean => !Number.isNaN(score[i]!) && reviewer[i] !== candidate[i];
  const groupAnswers = (start: number, end: number): number => {
    perAnswer.fill(0);
    let answers = 0;
    for (let i = start; i < end; i++) {
      if (!eligible(i)) continue;
      const answer = candidate[i]!;
      const seen = perAnswer[answer]!;
      perAnswer[answer] = seen + 1;
      if (seen === 0) answerOrder[answers++] = answer;
    }
    from[0] = 0;
    for (let a = 0; a < answers; a++) {
      from[a + 1] = from[a]! + perAnswer[answerOrder[a]!]!;
      slot[answerOrder[a]!] = from[a]!;
    }
    if (order.length < from[answers]!) order = new Int32Array(2 * from[answers]!);
    for (let i = start; i < end; i++) if (eligible(i)) order[slot[candidate[i]!]!++] = i;
    return answers;
  };
  const length = new Int32Array(M);
  for (let s = 0; s < S; s++) {
    const answers = groupAnswers(sessionStart[s]!, sessionStart[s + 1]!);
    count.fill(0);
    for (let a = 0; a < answers; a++) {
      if (from[a + 1]! - from[a]! < 2) continue;
      for (let j = from[a]!; j < from[a + 1]!; j++) count[reviewer[order[j]!]!]!++;
    }
    for (let r = 0; r < M; r++) if (count[r]! > 0) length[r]!++;
  }
  const out: ReviewerSeries[] = Array.from({ length: M }, (_, model) => ({
    model,
    sessions: new Int32Array(length[model]!),
    deviations: new Float64Array(length[model]!),
    configs: new Int32Array(length[model]!),
  }));
  const filled = new Int32Array(M);
  for (let s = 0; s < S; s++) {
    for (let r = 0; r < M; r++) shift[r] = offsets[r]!;
    for (const step of steps)
      if (s >= step.fromSession && (step.toSession === undefined || s < step.toSession))
        shift[step.model]! += step.delta;
    sum.fill(0);
    count.fill(0);
    const answers = groupAnswers(sessionStart[s]!, sessionStart[s + 1]!);
    // Answer by answer in the order of their first record, each answer's records in record order.
    for (let a = 0; a < answers; a++) {
      const first = from[a]!;
      const n = from[a + 1]! - first;
      if (n < 2) continue;
      let total = 0;
      for (let j = first; j < first + n; j++) total += score[order[j]!]! - shift[reviewer[order[j]!]!]!;
      for (let j = first; j < first + n; j++) {
        const i = order[j]!;
        const r = reviewer[i]!;
        const x = score[i]! - shift[r]!;
        sum[r]! += x - (total - x) / (n - 1);
        count[r]!++;
        config[r] = configVersion[i]!;
      }
    }
    for (let r = 0; r < M; r++) {
      if (count[r] === 0) continue;
      const series = out[r]!;
      const t = filled[r]!++;
      series.sessions[t] = s;
      series.deviations[t] = sum[r]! / count[r]!;
      series.configs[t] = config[r]!;
    }
  }
  return out;
}

/** P(sup |B(t)| > x) for a Brownian bridge B (Kolmogorov's distribution): 2 Σ (−1)^(j−1) exp(−2 j² x²). */
export function kolmogorovTail(x: number): number {
  if (!(x > 0)) return 1;
  if (x < 0.2) return 1;
  let p = 0;
  for (let j = 1; j <= 100; j++) {
    const term = Math.exp(-2 * j * j * x * x);
    p += (j % 2 === 1 ? 2 : -2) * term;
    if (term < 1e-16) break;
  }
  return Math.min(1, Math.max(0, p));
}

/**
 * One reviewer's test of "its offset did not change within the window", on its series of per-session deviations d.
 * Where the reviewer's config version changes within its series, the test is made there only (natural breaks,
 * chosen before looking): the largest standardised CUSUM |S_k − (k/n)·S_n| / √(k(n − k)/n) over those breaks k.
 * Otherwise a single change point anywhere: the largest |S_k − (k/n)·S_n| over k, the split where it is largest.
 * Either way each period keeps 10 sessions or more. The p-value permutes the reviewer's session order (seeded, up
 * to 9,999 permutations, stopped at the 20th permuted statistic as large as the observed one: Besag and Clifford's
 * sequential p-value, valid when its sessions are exchangeable without a change, and cheap for a reviewer that did
 * not drift); beyond 500 sessions the scan's
 * statistic over σ·√n is read against the supremum of a Brownian bridge (Kolmogorov's distribution), σ from the
 * series' successive differences (σ² = Σ(d_t − d_(t−1))² / 2(n − 1), which one step barely moves), and a break's
 * statistic over σ against N(0, 1), Bonferroni over the breaks. Null when no split leaves 10 sessions a side.
 */
export function driftTest(
  series: ReviewerSeries,
  random: SeededRandom,
): (Omit<ReviewerDriftFinding, 'adjustedPValue' | 'fromSession' | 'change'> & { split: number }) | null {
  const n = series.deviations.length;
  if (n < 2 * MIN_PERIOD) return null;
  const breaks: number[] = [];
  for (let t = 1; t < n; t++) if (series.configs[t] !== series.configs[t - 1]) breaks.push(t);
  const atBreaks = breaks.length > 0;
  const candidates = (
    atBreaks ? breaks : Array.from({ length: n - 2 * MIN_PERIOD + 1 }, (_, i) => MIN_PERIOD + i)
  ).filter((k) => k >= MIN_PERIOD && n - k >= MIN_PERIOD);
  if (candidates.length === 0) return null;
  const scale = candidates.map((k) => (atBreaks ? 1 / Math.sqrt((k * (n - k)) / n) : 1));
  const prefix = new Float64Array(n + 1);
  /** The largest (scaled) bridge over the candidates, and where. */
  const largest = (d: ArrayLike<number>): { value: number; at: number } => {
    for (let t = 0; t < n; t++) prefix[t + 1] = prefix[t]! + d[t]!;
    const total = prefix[n]!;
    let value = -1;
    let at = candidates[0]!;
    candidates.forEach((k, c) => {
      const b = Math.abs(prefix[k]! - (k / n) * total) * scale[c]!;
      if (b > value) {
        value = b;
        at = k;
      }
    });
    return { value, at };
  };
  const observed = largest(series.deviations);
  const cause = atBreaks ? ('config_version' as const) : ('scan' as const);
  const method = atBreaks ? ('config_break_z' as const) : ('cusum_kolmogorov' as const);
  const common = {
    model: series.model,
    cause,
    split: observed.at,
    sessionsBefore: observed.at,
    sessionsAfter: n - observed.at,
  };
  if (n <= PERMUTE_UP_TO) {
    const shuffled = Float64Array.from(series.deviations);
    let atLeast = 0;
    let drawn = 0;
    while (drawn < PERMUTATIONS && atLeast < EXCEEDANCES) {
      drawn++;
      for (let i = n - 1; i > 0; i--) {
        const j = random.integer(i + 1);
        const x = shuffled[i]!;
        shuffled[i] = shuffled[j]!;
        shuffled[j] = x;
      }
      if (largest(shuffled).value >= observed.value * (1 - 1e-12)) atLeast++;
    }
    return {
      ...common,
      method: atBreaks ? 'config_break_permutation' : 'cusum_permutation',
      statistic: observed.value,
      // Besag and Clifford (1991): h/l when stopped at the h-th exceedance after l permutations, else (1 + h)/(1 + L).
      pValue: atLeast >= EXCEEDANCES ? atLeast / drawn : (1 + atLeast) / (1 + PERMUTATIONS),
    };
  }
  const d = series.deviations;
  let squares = 0;
  for (let t = 1; t < n; t++) squares += (d[t]! - d[t - 1]!) ** 2;
  const sigma = Math.sqrt(squares / (2 * (n - 1)));
  if (!(sigma > 0)) return null;
  const statistic = atBreaks ? observed.value / sigma : observed.value / (sigma * Math.sqrt(n));
  const pValue = atBreaks ? Math.min(1, candidates.length * 2 * (1 - normalCdf(statistic))) : kolmogorovTail(statistic);
  return { ...common, method, statistic, pValue };
}

/** The change at `split` of `d[from, to)`: later mean less earlier, its Welch SE and df. */
export function stepAt(
  d: ArrayLike<number>,
  { from, split, to }: { from: number; split: number; to: number },
): ReviewerDriftFinding['change'] {
  const mean = (a: number, b: number): number => {
    let total = 0;
    for (let t = a; t < b; t++) total += d[t]!;
    return total / (b - a);
  };
  const variance = (a: number, b: number, m: number): number => {
    let total = 0;
    for (let t = a; t < b; t++) total += (d[t]! - m) ** 2;
    return total / (b - a - 1) / (b - a);
  };
  const before = mean(from, split);
  const after = mean(split, to);
  const vb = variance(from, split, before);
  const va = variance(split, to, after);
  const se = Math.sqrt(vb + va);
  const df = se > 0 ? (vb + va) ** 2 / (vb ** 2 / (split - from - 1) + va ** 2 / (to - split - 1)) : Infinity;
  return { estimate: after - before, standardError: se, df };
}

/** Whether a step's interval at level 1 − alpha lies beyond ±margin (no spread within the periods: its point). */
function beyondMargin(change: ReviewerDriftFinding['change'], alpha: number, margin: number): boolean {
  const half = change.standardError > 0 ? criticalT(1 - alpha, change.df) * change.standardError : 0;
  return Math.abs(change.estimate) - half > margin;
}

/**
 * Every reviewer's drift test, step-down (Holm) over the reviewers tested: the reviewer with the smallest p is a
 * change found when p·(m − i) ≤ `alpha` (m reviewers tested, i found before it); its step (the mean of its series
 * from the break less before) is then taken out of its scores and the others are tested again, since one reviewer's
 * step moves every other reviewer's series by 1/(m − 1) of it. Stops at the first reviewer whose adjusted p exceeds
 * `alpha`. A reviewer whose step (the difference of its series' means, a Welch interval at level 1 − `alpha`) does
 * not lie beyond ±`margin`, the reviewer-offset margin, is passed over (a change too small to flag an offset is not
 * one to split a reviewer for) and counted as rejected in the step-down, which keeps its thresholds valid.
 *
 * Each reviewer found is segmented further at once (binary segmentation): each of its periods with 20 sessions or more
 * is tested the same way on its own (at its config-version changes where it has any, else the best split), the
 * smallest p first, a change kept when p·m (m as above; the adjusted p never falls) ≤ `alpha` and its step beyond
 * ±`margin`, that period split in two and its parts tested in turn, until none is kept; then the other reviewers
 * are tested again (its steps taken out of their series). A reviewer that did not change is never segmented, so the
 * reviewers' family-wise error is the step-down's; the segments only give a reviewer already found its further
 * changes (several config-version changes, or a change and a change back). The segments draw their permutations
 * from a stream of their own, so where no further change is found the findings are the step-down's alone. Findings
 * are in the order found; a reviewer's first is its own test.
 */
export function reviewerDrifts(
  columns: BiasColumns,
  rule: {
    alpha: number;
    seed: number;
    margin: number;
    /** `reviewerSeries(columns, [], offsets)`, where the caller has them already (the first reviewers tested read them). */
    levelled?: readonly ReviewerSeries[];
  },
  offsets?: ArrayLike<number>,
): ReviewerDriftFinding[] {
  const { alpha, seed, margin, levelled } = rule;
  const random = createSeededSfc32(seed);
  const steps: DriftStep[] = [];
  const found: ReviewerDriftFinding[] = [];
  // Reviewers whose p passed their Holm threshold but whose step is within the margin: passed over, not found.
  const passed = new Set<number>();
  let lastAdjusted = 0;
  let m = -1;
  const segmentRandom = createSeededSfc32(seed ^ 0x5e9e47);
  /** Binary segmentation of a reviewer just found at `split` of its `n` sessions: its periods, as index ranges. */
  const segmentFurther = (model: number, split: number, n: number): void => {
    const segments = [
      { from: 0, to: split },
      { from: split, to: n },
    ];
    for (;;) {
      const x = reviewerSeries(columns, steps, offsets)[model]!;
      const tested = segments
        .map((segment) => {
          const part: ReviewerSeries = {
            model,
            sessions: x.sessions.slice(segment.from, segment.to),
            deviations: x.deviations.slice(segment.from, segment.to),
            configs: x.configs.slice(segment.from, segment.to),
          };
          return { segment, test: driftTest(part, segmentRandom) };
        })
        .filter(
          (t): t is { segment: (typeof segments)[number]; test: NonNullable<ReturnType<typeof driftTest>> } =>
            t.test !== null,
        );
      if (tested.length === 0) return;
      const best = tested.reduce((a, b) => (b.test.pValue < a.test.pValue ? b : a));
      const { split: at, ...rest } = best.test;
      const adjusted = Math.min(1, Math.max(lastAdjusted, rest.pValue * m));
      if (adjusted > alpha) return;
      const { from, to } = best.segment;
      const cut = from + at;
      const change = stepAt(x.deviations, { from, split: cut, to });
      if (!beyondMargin(change, alpha, margin)) return;
      const fromSession = x.sessions[cut]!;
      lastAdjusted = adjusted;
      found.push({ ...rest, adjustedPValue: adjusted, fromSession, change });
      // Each part of the split period is levelled on its own (the period was levelled as a whole).
      const end = to < x.sessions.length ? x.sessions[to]! : undefined;
      const whole = (change.estimate * (to - cut)) / (to - from);
      steps.push(
        { model, fromSession: x.sessions[from]!, toSession: fromSession, delta: -whole },
        { model, fromSession, ...(end === undefined ? {} : { toSession: end }), delta: change.estimate - whole },
      );
      segments.splice(segments.indexOf(best.segment), 1, { from, to: cut }, { from: cut, to });
    }
  };
  for (;;) {
    const series = steps.length === 0 && levelled !== undefined ? levelled : reviewerSeries(columns, steps, offsets);
    const tested = series
      .filter((x) => !passed.has(x.model) && !found.some((f) => f.model === x.model))
      .map((x) => ({ series: x, test: driftTest(x, random) }))
      .filter((t): t is { series: ReviewerSeries; test: NonNullable<ReturnType<typeof driftTest>> } => t.test !== null);
    if (m < 0) m = tested.length;
    if (tested.length === 0) return found;
    const best = tested.reduce((a, b) => (b.test.pValue < a.test.pValue ? b : a));
    const adjusted = Math.min(1, Math.max(lastAdjusted, best.test.pValue * (m - found.length - passed.size)));
    if (adjusted > alpha) return found;
    lastAdjusted = adjusted;
    const { split, ...rest } = best.test;
    const d = best.series.deviations;
    const fromSession = best.series.sessions[split]!;
    // A change worth reporting, as a flag must be: its step's interval (Welch, at level 1 − alpha, the drift
    // family's own share) beyond ±margin. A step within it (often another reviewer's step, seen at 1/(m − 1) of its
    // size) is passed over and the search goes on: counting it as rejected keeps Holm's thresholds valid.
    const change = stepAt(d, { from: 0, split, to: d.length });
    if (!beyondMargin(change, alpha, margin)) {
      passed.add(best.series.model);
      continue;
    }
    found.push({ ...rest, adjustedPValue: adjusted, fromSession, change });
    steps.push({ model: best.series.model, fromSession, delta: change.estimate });
    // Its further changes before anyone else is tested again: their steps move the others' series too.
    segmentFurther(best.series.model, split, d.length);
  }
}

/**
 * The columns with each period of a drifting reviewer after its first as a member of its own (index
 * `models.length + j` for the change `drifts[j]`, from its `fromSession` to the reviewer's next change), as reviewer
 * and as author, so the score model fits its periods' offsets against one typical reviewer.
 */
export function splitDriftingReviewers(
  columns: BiasColumns,
  drifts: readonly { model: number; fromSession: number }[],
): BiasColumns {
  const M = columns.models.length;
  const reviewer = Uint16Array.from(columns.reviewer);
  const candidate = Uint16Array.from(columns.candidate);
  // Oldest change first, so each record ends with the member of the latest period it falls in.
  const inTime = drifts.map(({ model, fromSession }, j) => ({ model, fromSession, j }));
  inTime.sort((a, b) => a.fromSession - b.fromSession);
  for (const { model, fromSession, j } of inTime) {
    for (let i = columns.sessionStart[fromSession]!; i < columns.length; i++) {
      if (columns.reviewer[i] === model) reviewer[i] = M + j;
      if (columns.candidate[i] === model) candidate[i] = M + j;
    }
  }
  return {
    ...columns,
    reviewer,
    candidate,
    models: [...columns.models, ...drifts.map(({ model }, j) => `${columns.models[model]!}\u0000latest${j}`)],
  };
}
