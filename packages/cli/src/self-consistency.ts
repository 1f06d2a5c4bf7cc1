import { createHash } from 'node:crypto';
import { confidenceTier } from '@council/bias-audit';
import { chiSquaredCdf } from '@council/scoring';
import type { ConfidenceTier } from '@council/bias-audit';
import type { HistoryEntry } from './history-entry.js';

/** ADR-015's self-consistency of one reviewer: how far its scores for identical answers differ between reviews. */
export interface ReviewerConsistency {
  /** The reviewing member (a model id, or a personality id). */
  reviewer: string;
  /** Distinct answer texts this reviewer scored more than once. */
  repeatedAnswers: number;
  /** Its scores of those answers. */
  reviews: number;
  /** Sessions those scores come from: what the confidence tier counts. */
  sessions: number;
  /** Degrees of freedom of the pooled SD: reviews − repeated answers. */
  df: number;
  /** The pooled within-answer SD of its scores (0 = perfectly consistent); null without a repeat. */
  scoreSd: number | null;
  /** The 95% interval of that SD (χ² on `df` degrees of freedom, scores taken as normal around each answer's mean). */
  interval: [number, number] | null;
  tier: ConfidenceTier;
}

/** The χ² quantile: the x with P(χ²_df ≤ x) = p, by bisection (60 halvings: far below a score's resolution). */
function chiSquaredQuantile(p: number, df: number): number {
  let low = 0;
  let high = df + 20 * Math.sqrt(2 * df) + 50;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (chiSquaredCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

function textKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Self-consistency from the history log: for each reviewer, the scores it gave to answers whose text is identical
 * (by SHA-256, wherever they came from: a batch repeating a query with models that repeat themselves, a re-run with
 * the same seed), pooled as one within-answer SD. Answers it scored once do not count. Reviews without a score
 * (ranking only, abstained, failed) are left out.
 */
export function measureSelfConsistency(entries: readonly HistoryEntry[]): ReviewerConsistency[] {
  // reviewer → answer text hash → the scores, each with its session
  const byReviewer = new Map<string, Map<string, { score: number; session: string }[]>>();
  for (const { session } of entries) {
    const texts = new Map(
      session.stage1.flatMap((answer) => (answer.text === null ? [] : [[answer.member, answer.text] as const])),
    );
    for (const review of session.stage2) {
      const scores = review.evaluation?.scores ?? {};
      for (const [candidate, score] of Object.entries(scores)) {
        const text = texts.get(candidate);
        if (text === undefined || !Number.isFinite(score)) continue;
        const answers = byReviewer.get(review.reviewer) ?? new Map<string, { score: number; session: string }[]>();
        byReviewer.set(review.reviewer, answers);
        const key = textKey(text);
        answers.set(key, [...(answers.get(key) ?? []), { score, session: session.sessionId }]);
      }
    }
  }
  const result: ReviewerConsistency[] = [];
  for (const [reviewer, answers] of byReviewer) {
    const repeated = [...answers.values()].filter((scores) => scores.length >= 2);
    const reviews = repeated.reduce((n, scores) => n + scores.length, 0);
    const df = reviews - repeated.length;
    let squares = 0;
    for (const scores of repeated) {
      const mean = scores.reduce((sum, one) => sum + one.score, 0) / scores.length;
      for (const one of scores) squares += (one.score - mean) ** 2;
    }
    const sessions = new Set(repeated.flatMap((scores) => scores.map((one) => one.session))).size;
    const scoreSd = df > 0 ? Math.sqrt(squares / df) : null;
    const interval: [number, number] | null =
      df > 0
        ? [Math.sqrt(squares / chiSquaredQuantile(0.975, df)), Math.sqrt(squares / chiSquaredQuantile(0.025, df))]
        : null;
    result.push({
      reviewer,
      repeatedAnswers: repeated.length,
      reviews,
      sessions,
      df,
      scoreSd,
      interval,
      tier: confidenceTier(sessions),
    });
  }
  return result.sort((a, b) => a.reviewer.localeCompare(b.reviewer));
}
