import type { BiasObservation } from '@council/bias-audit';
import type { CouncilSession } from './council-session.js';

export interface ObservationsFromSessionOptions {
  /** The council configuration version (ADR-018 `council_config_version`). */
  configVersion?: string | null;
  /** The query's category from its metadata (e.g. `coding`) — never the query text. */
  queryCategory?: string | null;
}

/**
 * One `BiasObservation` per (reviewer, candidate) the reviewer was shown: display position (never
 * rank), response length in characters (code points), the score (null when not scored), the 0-based
 * rank position (null when not ranked). Failed and abstaining reviews carry no judgement and give
 * none. Self-reviews are kept, so self-preference can be measured. Never includes any text.
 */
export function observationsFromSession(
  session: CouncilSession,
  options: ObservationsFromSessionOptions = {},
): BiasObservation[] {
  const lengthOf = new Map(session.stage1.filter((s) => s.text !== null).map((s) => [s.member, [...s.text!].length]));
  const observations: BiasObservation[] = [];
  for (const review of session.stage2) {
    const evaluation = review.evaluation;
    if (!evaluation || evaluation.abstained) continue;
    review.order.forEach((candidate, position) => {
      const rank = evaluation.ranking.indexOf(candidate);
      observations.push({
        sessionId: session.sessionId,
        timestamp: session.timestamp,
        reviewer: review.reviewer,
        candidate,
        position,
        responseLengthChars: lengthOf.get(candidate) ?? 0,
        score: evaluation.scores[candidate] ?? null,
        rankPosition: rank >= 0 ? rank : null,
        configVersion: options.configVersion ?? null,
        queryCategory: options.queryCategory ?? null,
      });
    });
  }
  return observations;
}
