import type { IndicatorSessionSummary } from '../indicator-session-summary.js';
import type { IndicatorSessionStats } from './session-indicators.js';

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);
const orNaN = (v: number | null): number => v ?? Number.NaN;

/** A session's indicators in their published form (null where not computable; reviewers by name). */
export function publishIndicators(x: IndicatorSessionStats, models: readonly string[]): IndicatorSessionSummary {
  return {
    scoredRecords: x.scoredRecords,
    meanScore: orNull(x.meanScore),
    lengthCorrelation: Number.isNaN(x.lengthR) ? null : { r: x.lengthR, answers: x.lengthN },
    positionSpread: orNull(x.positionSpread),
    primacy: orNull(x.primacy),
    recency: orNull(x.recency),
    anchoring: orNull(x.anchoring),
    positions: x.positions.map((p) => ({ position: p.position, score: orNull(p.score), rank: orNull(p.rank) })),
    reviewers: x.reviewers.map((r) => ({
      reviewer: models[r.reviewer]!,
      scores: r.n,
      sum: r.sum,
      sumOfSquares: r.sumOfSquares,
    })),
    positionedScores: x.positionedScores,
    rankOnly: x.rankOnly,
    scoreBlocks: x.scoreBlocks.map((b) => ({ group: b.group, values: [...b.values], positions: [...b.positions] })),
    rankBlocks: x.rankBlocks.map((b) => ({ group: b.group, values: [...b.values], positions: [...b.positions] })),
  };
}

/** The reverse, for a session `session` of published summaries whose members are indexed by `modelIndex`. */
export function indicatorsFromSummary(
  x: IndicatorSessionSummary,
  at: {
    session: number;
    members: readonly string[];
    configVersions: readonly string[];
    modelIndex: ReadonlyMap<string, number>;
  },
): IndicatorSessionStats {
  const index = (name: string): number => at.modelIndex.get(name)!;
  return {
    session: at.session,
    members: at.members.map(index).sort((a, b) => a - b),
    configVersions: [...at.configVersions],
    scoredRecords: x.scoredRecords,
    meanScore: orNaN(x.meanScore),
    lengthR: x.lengthCorrelation === null ? Number.NaN : x.lengthCorrelation.r,
    lengthN: x.lengthCorrelation?.answers ?? 0,
    positionSpread: orNaN(x.positionSpread),
    primacy: orNaN(x.primacy),
    recency: orNaN(x.recency),
    anchoring: orNaN(x.anchoring),
    positions: x.positions.map((p) => ({ position: p.position, score: orNaN(p.score), rank: orNaN(p.rank) })),
    reviewers: x.reviewers.map((r) => ({
      reviewer: index(r.reviewer),
      n: r.scores,
      sum: r.sum,
      sumOfSquares: r.sumOfSquares,
    })),
    positionedScores: x.positionedScores,
    rankOnly: x.rankOnly,
    scoreBlocks: x.scoreBlocks,
    rankBlocks: x.rankBlocks,
  };
}
