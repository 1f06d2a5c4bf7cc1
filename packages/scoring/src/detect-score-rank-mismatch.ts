import type { Ballot } from './ballot.js';
import { validateBallot } from './prepare-ballots.js';

/** Two candidates whose explicit ranking contradicts their scores. */
export interface ScoreRankMismatch {
  /** The candidate ranked higher (earlier in `ranking`)… */
  rankedHigher: string;
  /** …than this one… */
  rankedLower: string;
  /** …although it scored lower. */
  rankedHigherScore: number;
  rankedLowerScore: number;
}

/**
 * Lists every pair of candidates that a ballot ranks in one order but scores in the other (ADR-007's
 * score/rank mismatch). Diagnostics only: scoring always trusts the ranking. Equal scores are no
 * conflict; candidates without a finite score, repeats after their first occurrence, and ballots
 * without an explicit ranking yield nothing. Pairs come in ranking order.
 */
export function detectScoreRankMismatch(ballot: Ballot): ScoreRankMismatch[] {
  validateBallot(ballot, 0, 'detectScoreRankMismatch');
  const scores = ballot.scores;
  if (scores === undefined) return [];
  const seen = new Set<string>();
  const scored: [string, number][] = [];
  for (const id of ballot.ranking) {
    if (seen.has(id)) continue;
    seen.add(id);
    const value = Object.hasOwn(scores, id) ? scores[id] : undefined;
    if (typeof value === 'number' && Number.isFinite(value)) scored.push([id, value]);
  }
  const mismatches: ScoreRankMismatch[] = [];
  for (let i = 0; i < scored.length; i++) {
    for (let j = i + 1; j < scored.length; j++) {
      const [higher, higherScore] = scored[i]!;
      const [lower, lowerScore] = scored[j]!;
      if (lowerScore > higherScore)
        mismatches.push({
          rankedHigher: higher,
          rankedLower: lower,
          rankedHigherScore: higherScore,
          rankedLowerScore: lowerScore,
        });
    }
  }
  return mismatches;
}
