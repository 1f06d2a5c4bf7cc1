/** One reviewer's view of a session for the position tests: its centred values and where each was shown. */
export interface PositionBlockSummary {
  /** Reviewers of one session with the same `group` were shown the same order (they are permuted together). */
  group: number;
  values: number[];
  positions: number[];
}

/**
 * What the rest of the report (beside the score model) needs of one session (`BiasSessionSummary.indicators`):
 * its per-session indicators (null where not computable), the design-based position figures and the
 * reviewers' score sums. Within-reviewer centred means a reviewer's score less its own mean score in the
 * session; rank points are 1 for first … 0 for last, centred the same way.
 */
export interface IndicatorSessionSummary {
  /** Records with a score. */
  scoredRecords: number;
  meanScore: number | null;
  /** Pearson r of the answers' lengths and mean scores, over `answers` (≥ 3) answers. */
  lengthCorrelation: { r: number; answers: number } | null;
  /** Variance of the positions' mean centred scores (2 positions or more). */
  positionSpread: number | null;
  /** Mean centred score at each reviewer's first / last position shown. */
  primacy: number | null;
  recency: number | null;
  /** Pearson r of display position and |score − the session's mean score| (3 scores or more). */
  anchoring: number | null;
  /** Per position shown: the mean centred score and the mean centred rank points there. */
  positions: { position: number; score: number | null; rank: number | null }[];
  /** Per reviewer with a score: how many, their sum and their sum of squares. */
  reviewers: { reviewer: string; scores: number; sum: number; sumOfSquares: number }[];
  /** A reviewer scored two answers or more. */
  positionedScores: boolean;
  /** A reviewer ranked two answers or more without scoring them. */
  rankOnly: boolean;
  /** Per reviewer that scored two answers or more. */
  scoreBlocks: PositionBlockSummary[];
  /** Per reviewer that ranked two answers or more without scoring them. */
  rankBlocks: PositionBlockSummary[];
}

const isNumberOrNull = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v));
const isFinite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/** Checks one session's indicator part; `fail(what)` throws with the session named. */
export function checkIndicatorSessionSummary(x: IndicatorSessionSummary, fail: (what: string) => never): void {
  if (typeof x !== 'object' || x === null) fail('indicators must be an object');
  if (!Number.isInteger(x.scoredRecords) || x.scoredRecords < 0) fail('indicators.scoredRecords must be a whole number ≥ 0');
  for (const key of ['meanScore', 'positionSpread', 'primacy', 'recency', 'anchoring'] as const) {
    if (!isNumberOrNull(x[key])) fail(`indicators.${key} must be a finite number or null`);
  }
  const length = x.lengthCorrelation;
  if (length !== null && (typeof length !== 'object' || !isFinite(length.r) || !Number.isInteger(length.answers) || length.answers < 3)) {
    fail('indicators.lengthCorrelation must be null or { r, answers ≥ 3 }');
  }
  if (typeof x.positionedScores !== 'boolean' || typeof x.rankOnly !== 'boolean') fail('indicators.positionedScores and .rankOnly must be booleans');
  if (!Array.isArray(x.positions) || !x.positions.every((p) => Number.isInteger(p?.position) && p.position >= 0 && isNumberOrNull(p.score) && isNumberOrNull(p.rank))) {
    fail('indicators.positions must be { position ≥ 0, score, rank } entries (numbers or null)');
  }
  if (!Array.isArray(x.reviewers) || !x.reviewers.every((r) => typeof r?.reviewer === 'string' && Number.isInteger(r.scores) && r.scores > 0 && isFinite(r.sum) && isFinite(r.sumOfSquares))) {
    fail('indicators.reviewers must be { reviewer, scores ≥ 1, sum, sumOfSquares } entries');
  }
  for (const key of ['scoreBlocks', 'rankBlocks'] as const) {
    const blocks = x[key];
    const valid =
      Array.isArray(blocks) &&
      blocks.every(
        (b) =>
          Number.isInteger(b?.group) &&
          b.group >= 0 &&
          Array.isArray(b.values) &&
          Array.isArray(b.positions) &&
          b.values.length === b.positions.length &&
          b.values.every(isFinite) &&
          b.positions.every((p) => Number.isInteger(p) && p >= 0),
      );
    if (!valid) fail(`indicators.${key} must be { group ≥ 0, values, positions } entries of equal length`);
  }
}
