import { confidenceTier, studentTQuantile } from '@council/bias-audit';
import type { ConfidenceTier } from '@council/bias-audit';
import type { HistoryEntry } from './history-entry.js';

/**
 * An answer's style, free of its length (length has its own figure, the length bias): words per sentence, the share
 * of its lines that are list items, the share that are headings, the share of its characters inside code fences,
 * and bold or underline markers per 100 words.
 */
export function styleStatistics(text: string): number[] {
  const words = text.match(/[\p{L}\p{N}']+/gu)?.length ?? 0;
  const sentences = text.split(/[.!?]+(?:\s|$)|\n/).filter((part) => /[\p{L}\p{N}]/u.test(part)).length;
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const share = (pattern: RegExp) =>
    lines.length === 0 ? 0 : lines.filter((line) => pattern.test(line)).length / lines.length;
  const fenced = [...text.matchAll(/```[\s\S]*?(?:```|$)/g)].reduce((n, m) => n + m[0].length, 0);
  const emphasis = text.match(/\*\*|__/g)?.length ?? 0;
  return [
    sentences === 0 ? 0 : words / sentences,
    share(/^\s*(?:[-*+]|\d+[.)])\s/),
    share(/^\s*#{1,6}\s/),
    text.length === 0 ? 0 : fenced / text.length,
    words === 0 ? 0 : (100 * emphasis) / words,
  ];
}

/** ADR-015's style mimicry of one reviewer: whether it scores answers higher the closer their style is to its own answer's. */
export interface ReviewerStyleMimicry {
  reviewer: string;
  /** Sessions where it scored at least two other members' answers and answered itself. */
  sessions: number;
  /** Its scores of other members' answers in those sessions. */
  reviews: number;
  /**
   * Points (on the reviewer's score scale) its score rises when another answer's style is one standard deviation of
   * style similarity closer to its own, within sessions; positive = it favours answers written like its own. The SD is
   * that of the similarities it actually met, within sessions (`similaritySd`), so the figure is the within-session
   * correlation times the SD of its scores: never more than the spread of its scores. Null below two sessions.
   */
  pointsPerSimilaritySd: number | null;
  /** 95% interval: session-clustered standard error, t on sessions − 1 degrees of freedom. */
  interval: [number, number] | null;
  /** Within-session correlation of its scores with the similarity (−1 to 1). Null below two sessions. */
  correlation: number | null;
  /**
   * The within-session SD of the similarity (minus the distance between standardised style statistics) over the
   * answers it scored: Σ(x − x̄ₛ)² / (n − sessions). Null below two sessions.
   */
  similaritySd: number | null;
  tier: ConfidenceTier;
}

/** Per (session, reviewer): the other answers' closeness to the reviewer's own style and the scores it gave them. */
interface Block {
  session: string;
  closeness: number[];
  scores: number[];
}

function sampleSd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

function centred(values: readonly number[]): number[] {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.map((v) => v - mean);
}

/**
 * Style mimicry from the history log, which keeps every answer's text and every reviewer's scores. Each style
 * statistic is put in units of its SD over all answers in the history (a statistic that never varies drops out);
 * an answer's closeness to the reviewer is minus the Euclidean distance between the two. Within each session the
 * reviewer's scores of the other members' answers (its own left out: that is self-preference) are regressed on
 * their closeness, pooled over sessions; the interval clusters by session. The slope is reported per SD of the
 * closeness the reviewer met within sessions (points per unit of distance would extrapolate far past what any session
 * shows). An association: an answer written like
 * the reviewer's may also be better, or longer.
 */
export function measureStyleMimicry(entries: readonly HistoryEntry[]): ReviewerStyleMimicry[] {
  const styles = new Map<string, number[]>(); // `${session}\0${member}` → statistics
  for (const { session } of entries) {
    for (const answer of session.stage1)
      if (answer.text !== null) styles.set(`${session.sessionId}\0${answer.member}`, styleStatistics(answer.text));
  }
  const all = [...styles.values()];
  const sds = (all[0] ?? []).map((_, k) => sampleSd(all.map((s) => s[k]!)));
  const distance = (a: readonly number[], b: readonly number[]) =>
    Math.sqrt(sds.reduce((sum, sd, k) => (sd > 0 ? sum + ((a[k]! - b[k]!) / sd) ** 2 : sum), 0));
  const blocks = new Map<string, Block[]>();
  for (const { session } of entries) {
    for (const review of session.stage2) {
      const own = styles.get(`${session.sessionId}\0${review.reviewer}`);
      if (own === undefined) continue;
      const block: Block = { session: session.sessionId, closeness: [], scores: [] };
      for (const [candidate, score] of Object.entries(review.evaluation?.scores ?? {})) {
        const style = styles.get(`${session.sessionId}\0${candidate}`);
        if (candidate === review.reviewer || style === undefined || !Number.isFinite(score)) continue;
        block.closeness.push(-distance(style, own));
        block.scores.push(score);
      }
      if (block.scores.length >= 2) blocks.set(review.reviewer, [...(blocks.get(review.reviewer) ?? []), block]);
    }
  }
  const result: ReviewerStyleMimicry[] = [];
  for (const [reviewer, list] of blocks) {
    const xs = list.map((b) => centred(b.closeness));
    const ys = list.map((b) => centred(b.scores));
    const sxx = xs.flat().reduce((a, x) => a + x * x, 0);
    const sxy = xs.reduce((a, x, i) => a + x.reduce((b, xv, j) => b + xv * ys[i]![j]!, 0), 0);
    const sessions = new Set(list.map((b) => b.session)).size;
    const reviews = list.reduce((n, b) => n + b.scores.length, 0);
    let perSd: number | null = null;
    let interval: [number, number] | null = null;
    let correlation: number | null = null;
    let similaritySd: number | null = null;
    const g = list.length;
    if (sxx > 0 && g >= 2 && reviews > g) {
      // The pooled within-session slope in points per unit of distance (one SD of each style statistic). A unit of
      // distance can be far more than the similarities a reviewer meets within a session (the members' styles may
      // differ by a tenth of that), so the slope alone extrapolates: it is put per SD of the similarities met.
      const slope = sxy / sxx;
      // Cluster-robust (by session) variance of the pooled slope, with the G/(G − 1) small-sample factor.
      const scores = xs.map((x, i) => x.reduce((a, xv, j) => a + xv * (ys[i]![j]! - slope * xv), 0));
      const se = Math.sqrt((scores.reduce((a, u) => a + u * u, 0) / (sxx * sxx)) * (g / (g - 1)));
      const t = studentTQuantile(0.975, g - 1);
      similaritySd = Math.sqrt(sxx / (reviews - g));
      perSd = slope * similaritySd;
      interval = [(slope - t * se) * similaritySd, (slope + t * se) * similaritySd];
      const syy = ys.flat().reduce((a, y) => a + y * y, 0);
      correlation = syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
    }
    result.push({
      reviewer,
      sessions,
      reviews,
      pointsPerSimilaritySd: perSd,
      interval,
      correlation,
      similaritySd,
      tier: confidenceTier(sessions),
    });
  }
  return result.sort((a, b) => a.reviewer.localeCompare(b.reviewer));
}
