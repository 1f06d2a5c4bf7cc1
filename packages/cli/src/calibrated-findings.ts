// Issue 31's figures said as sentences a team lead reads — the calibrated leaderboard, how many independent judges
// the reviewers are worth, the reviewer offsets pooled toward the typical reviewer, the style-controlled ratings —
// shared by the text report, the HTML report and the dashboard (web/src imports this file: like bias-findings.ts it
// must stay free of runtime imports other than that file). The shapes below are the JSON document's (a figure that
// could not be computed is null there), so the dashboard reads them as the CLI computes them.
import { ordinal, sizeInterval } from './bias-findings.js';

/** An estimate with its interval; null where not computable (JSON has no NaN). */
export interface IntervalFigure {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
}

/** The sentence every calibrated output carries (ADR-018: reviewer profiles never feed back into live votes). */
export const ANALYTICS_ONLY = 'Analytics only: live votes are unchanged.';

function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** "+1.25", "-4.50", "0.00" (no sign on zero, no −0.00). */
export function signed(value: number | null, digits = 2): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const text = fixed(value, digits);
  return Number(text) > 0 ? `+${text}` : text;
}

/** "8.00 [7.80, 8.20]", or the signed "-4.50 [-4.60, -4.40]"; the bare estimate when there is no interval. */
export function figureText(f: IntervalFigure, options: { digits?: number; signed?: boolean } = {}): string {
  const digits = options.digits ?? 2;
  const one = (v: number | null): string =>
    v === null || !Number.isFinite(v) ? 'n/a' : options.signed ? signed(v, digits) : fixed(v, digits);
  if (f.lower === null || f.upper === null || !Number.isFinite(f.lower) || !Number.isFinite(f.upper))
    return one(f.estimate);
  return `${one(f.estimate)} [${one(f.lower)}, ${one(f.upper)}]`;
}

/** Members whose place moves between two orders: "m/a rises from 2nd to 1st; m/b falls from 1st to 2nd". */
function moves(entries: readonly { name: string; from: number; to: number }[]): string {
  return entries
    .filter((e) => e.from !== e.to)
    .sort((a, b) => a.to - b.to)
    .map((e) => `${e.name} ${e.to < e.from ? 'rises' : 'falls'} from ${ordinal(e.from)} to ${ordinal(e.to)}`)
    .join('; ');
}

/**
 * The calibrated leaderboard against the raw one in a sentence: "Taking each reviewer's offset and the display
 * positions' effects out of the scores changes the order: m/a rises from 2nd to 1st; m/b falls from 1st to 2nd."
 * Where every pair that swapped places has a calibrated difference whose interval includes 0 (`differences`, model
 * above other), it says the data cannot yet tell them apart, so a reader does not take a coin toss for a finding.
 */
export function calibratedOrderSentence(view: {
  leaderboard: readonly { model: string; rawRank: number; calibratedRank: number }[];
  differences?: readonly { model: string; other: string; calibrated: IntervalFigure }[];
}): string {
  const { leaderboard } = view;
  const changed = moves(leaderboard.map((e) => ({ name: e.model, from: e.rawRank, to: e.calibratedRank })));
  if (changed === '')
    return "Taking each reviewer's offset and the display positions' effects out of the scores leaves the order as it is.";
  const sentence = `Taking each reviewer's offset and the display positions' effects out of the scores changes the order: ${changed}.`;
  const swapped = leaderboard.flatMap((x) =>
    leaderboard
      .filter((y) => x.calibratedRank < y.calibratedRank && x.rawRank > y.rawRank)
      .map((y) => view.differences?.find((d) => d.model === x.model && d.other === y.model)),
  );
  const unsettled = (d: (typeof swapped)[number]): boolean =>
    d !== undefined && (d.calibrated.lower === null || d.calibrated.lower <= 0);
  return swapped.length > 0 && swapped.every(unsettled)
    ? `${sentence} Their intervals overlap, though: these data cannot yet tell them apart.`
    : sentence;
}

/**
 * Where every member's raw mean is the same and no interval has width — every score in the window alike — says so:
 * "Every score in the window is 7.30: with no spread there is nothing to calibrate, and the intervals have no width
 * because the scores never varied, not because the order is certain." Null where the scores vary.
 */
export function noSpreadSentence(view: {
  leaderboard: readonly { raw: IntervalFigure; calibrated: IntervalFigure }[];
}): string | null {
  const first = view.leaderboard[0]?.raw.estimate;
  if (first === undefined || first === null) return null;
  const same = (v: number | null): boolean => v !== null && Math.abs(v - first) <= 1e-9 * Math.max(1, Math.abs(first));
  const flat = view.leaderboard.every(
    (e) =>
      same(e.raw.estimate) &&
      same(e.raw.lower) &&
      same(e.raw.upper) &&
      same(e.calibrated.estimate) &&
      same(e.calibrated.lower) &&
      same(e.calibrated.upper),
  );
  return flat
    ? `Every score in the window is ${fixed(first, 2)}: with no spread there is nothing to calibrate, and the intervals have no width because the scores never varied, not because the order is certain.`
    : null;
}

/** What `effectiveJudges` reports, as the JSON document carries it. */
export interface JudgesFigures {
  reviewers: number;
  effective: IntervalFigure;
  standardErrorFactor: number | null;
  pairs: readonly unknown[];
  /** Sessions the figure was read from (absent in documents written before it was shown). */
  sessions?: number;
}

/** The answers two reviewers must both have scored for their pair to count (`effectiveJudges`' default). */
const MIN_SHARED_ANSWERS = 10;
/**
 * Below this many sessions n_eff's interval is less sure than its level says (`effectiveJudges`' SHORT_WINDOW; the
 * bias-audit README's issue-31 study: 89.5% at 20 sessions where two groups of judges each err alike).
 */
const SHORT_WINDOW = 50;

/**
 * "5 judges, 2.3 effective [1.8–3.1]: the leaderboard's intervals are as wide as 2.3 independent judges would give
 * (the reviewers' part of each is 1.47 times as wide as 5 independent judges would make it)." Or why it cannot be
 * told yet.
 */
export function effectiveJudgesSentence(judges: JudgesFigures): string {
  const n = judges.effective.estimate;
  if (n === null || !Number.isFinite(n)) {
    return judges.pairs.length === 0
      ? `Not known yet: it needs two reviewers who both scored at least ${MIN_SHARED_ANSWERS} of the same answers.`
      : 'Not known: the reviewers never disagreed about an answer, so there is no error to compare.';
  }
  const interval = sizeInterval(judges.effective.lower, judges.effective.upper, 1);
  const factor = judges.standardErrorFactor;
  const wider =
    factor !== null && Number.isFinite(factor) && Number(factor.toFixed(2)) > 1
      ? ` (the reviewers' part of each is ${factor.toFixed(2)} times as wide as ${judges.reviewers} independent judges would make it)`
      : '';
  const short =
    interval !== '' && judges.sessions !== undefined && judges.sessions < SHORT_WINDOW
      ? ` With ${judges.sessions} sessions (under ${SHORT_WINDOW}) the interval is less sure than it says: in simulated 20-session councils where two groups of judges each err alike it held the true figure 89.5% of the time, and lay above it when it missed.`
      : '';
  return `${judges.reviewers} judges, ${n.toFixed(1)} effective${interval === '' ? '' : ` ${interval}`}: the leaderboard's intervals are as wide as ${n.toFixed(1)} independent judges would give${wider}.${short}`;
}

/** One pair of reviewers: "j/one and j/two err alike (correlation 1.00 [1.00, 1.00]): together worth 1.0 judges [1.0–1.0]". */
export function judgePairSentence(pair: {
  reviewer: string;
  other: string;
  answers: number;
  correlation: IntervalFigure;
  effective: IntervalFigure;
}): string {
  const rho = pair.correlation.estimate;
  const how =
    rho === null || !Number.isFinite(rho)
      ? 'cannot be compared'
      : rho >= 0.5
        ? 'err alike'
        : rho <= -0.2
          ? 'err in opposite directions'
          : rho >= 0.2
            ? 'err somewhat alike'
            : 'err independently';
  const worth = pair.effective.estimate;
  const worthInterval = sizeInterval(pair.effective.lower, pair.effective.upper, 1);
  return `${pair.reviewer} and ${pair.other} ${how} (error correlation ${figureText(pair.correlation, { signed: true })}, over ${pair.answers} answers both scored)${
    worth === null || !Number.isFinite(worth)
      ? ''
      : `: together worth ${worth.toFixed(1)} judges${worthInterval === '' ? '' : ` ${worthInterval}`}`
  }`;
}

/**
 * The prior the reviewer offsets are pooled with, in words: "Prior: a reviewer's true offset lies around the typical
 * reviewer's (0) with a spread of τ = 2.25 points, estimated from the 4 reviewers' offsets (empirical Bayes)…".
 */
export function poolingPriorSentence(prior: { tau: number; subjects: number; sharedVariance?: number }): string {
  // Where the typical reviewer's own place is uncertain beyond what the measured intervals count (reviewers graded
  // with no clear majority), the pooled intervals carry that too.
  // Said only where it reads as at least 0.01 points: the bootstrap behind it is seldom exactly 0 in a fair council.
  const shared =
    prior.sharedVariance !== undefined && Math.sqrt(prior.sharedVariance) >= 0.005
      ? ` The pooled intervals also allow for how uncertain the typical reviewer's own place is (an SD of ${Math.sqrt(prior.sharedVariance).toFixed(2)} points shared by every offset).`
      : '';
  if (!(prior.tau > 0))
    return `Prior: the ${prior.subjects} reviewers' measured offsets vary no more than their own noise (most likely spread τ = 0), so each offset is pulled strongly toward the typical reviewer's 0 — not all the way, since the data also allow a larger spread — until more sessions show otherwise.${shared}`;
  return `Prior: a reviewer's true offset lies around the typical reviewer's (0) with a spread of about τ = ${prior.tau.toFixed(2)} points (its most likely value), learnt from the ${prior.subjects} reviewers' offsets (empirical Bayes, averaged over every spread the data allow). Each offset keeps the share of its measured value that its precision earns, so a reviewer seen in few sessions is pulled toward 0 rather than reported as extreme on noise.${shared}`;
}

/** One pooled offset: "r/harsh: measured -4.50, pooled -4.50 [-4.50, -4.50] (keeps 100% of its measured offset)". */
export function pooledOffsetSentence(effect: {
  subject: string;
  raw: number;
  estimate: number;
  lower: number;
  upper: number;
  shrinkage: number;
}): string {
  return `${effect.subject}: measured ${signed(effect.raw)}, pooled ${figureText(effect, { signed: true })} (keeps ${Math.round(effect.shrinkage * 100)}% of its measured offset)`;
}

/** A style feature's name in words. */
export function styleFeatureName(feature: string): string {
  switch (feature) {
    case 'log_length':
    case 'length_per_1000_chars':
      return 'length';
    case 'words_per_sentence':
      return 'words per sentence';
    case 'list_share':
      return 'share of list lines';
    case 'heading_share':
      return 'share of heading lines';
    case 'code_share':
      return 'share of code';
    case 'emphasis_per_100_words':
      return 'emphasis per 100 words';
    default:
      return feature.replaceAll('_', ' ');
  }
}

/** Style-controlled Bradley–Terry against the plain fit in a sentence ("Holding length fixed changes the order: …"). */
export function styleOrderSentence(ratings: {
  plain: readonly { candidate: string; rank: number }[];
  styleControlled: readonly { candidate: string; rank: number }[];
  coefficients: readonly { feature: string }[];
}): string {
  const plainRank = new Map(ratings.plain.map((e) => [e.candidate, e.rank]));
  const held = ratings.coefficients.map((c) => styleFeatureName(c.feature));
  const what =
    held.length === 0 ? 'style' : held.length === 1 ? held[0]! : `${held.slice(0, -1).join(', ')} and ${held.at(-1)!}`;
  const changed = moves(
    ratings.styleControlled.map((e) => ({ name: e.candidate, from: plainRank.get(e.candidate) ?? e.rank, to: e.rank })),
  );
  return changed === ''
    ? `Holding ${what} fixed leaves the order of the reviewers' rankings as it is.`
    : `Holding ${what} fixed changes the order of the reviewers' rankings: ${changed}.`;
}

/**
 * A style coefficient in words: "An answer one standard deviation longer (in log characters) wins more often: +0.42
 * log-odds [+0.20, +0.63]".
 */
export function styleCoefficientSentence(c: {
  feature: string;
  coefficient: number;
  interval: { lower: number; upper: number } | null;
}): string {
  const figure = figureText(
    { estimate: c.coefficient, lower: c.interval?.lower ?? null, upper: c.interval?.upper ?? null },
    { signed: true },
  );
  const subject =
    c.feature === 'log_length'
      ? 'An answer one standard deviation longer (in log characters)'
      : c.feature === 'length_per_1000_chars'
        ? 'An answer one standard deviation longer (in characters)'
        : `An answer one standard deviation higher in ${styleFeatureName(c.feature)}`;
  const how = Number(c.coefficient.toFixed(2)) === 0 ? 'no more or less' : c.coefficient > 0 ? 'more' : 'less';
  return `${subject} wins ${how} often: ${figure} log-odds`;
}
