import type { SessionCheck } from './internal/session-check.js';
import { isFiniteNumber } from './internal/session-check.js';
import { MAX_POSITION } from './internal/window-observations.js';

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
  /** Per position with a centred score or rank point: their mean there (null where it has none of that kind). */
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

const isNumberOrNull = (v: unknown): boolean => v === null || isFiniteNumber(v);
const isPosition = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_POSITION;
const isCorrelation = (v: unknown): boolean => v === null || (isFiniteNumber(v) && Math.abs(v) <= 1);

/**
 * Checks one session's indicator part (read from elsewhere, so nothing about it is trusted): shapes, ranges
 * (correlations within ±1, spreads ≥ 0, positions within 0–65,535, each position once), and reviewers that are
 * members of the session, each once.
 */
export function checkIndicatorSessionSummary(
  input: unknown,
  check: SessionCheck,
): asserts input is IndicatorSessionSummary {
  const { members } = check;
  const fail: (what: string) => never = check.fail; // annotated, so a call narrows like a throw
  if (typeof input !== 'object' || input === null) fail('indicators must be an object');
  const x = input as Partial<IndicatorSessionSummary>;
  if (!Number.isInteger(x.scoredRecords) || x.scoredRecords! < 0)
    fail('indicators.scoredRecords must be a whole number ≥ 0');
  for (const key of ['meanScore', 'primacy', 'recency'] as const)
    if (!isNumberOrNull(x[key])) fail(`indicators.${key} must be a finite number or null`);
  if (!isCorrelation(x.anchoring)) fail('indicators.anchoring must be a correlation (−1 to 1) or null');
  if (!(x.positionSpread === null || (isFiniteNumber(x.positionSpread) && x.positionSpread >= 0)))
    fail('indicators.positionSpread must be a number ≥ 0 or null');
  const length = x.lengthCorrelation;
  if (
    length !== null &&
    (typeof length !== 'object' ||
      length === undefined ||
      !isFiniteNumber(length.r) ||
      !isCorrelation(length.r) ||
      !Number.isInteger(length.answers) ||
      length.answers < 3)
  ) {
    fail('indicators.lengthCorrelation must be null or { r (−1 to 1), answers ≥ 3 }');
  }
  if (typeof x.positionedScores !== 'boolean' || typeof x.rankOnly !== 'boolean')
    fail('indicators.positionedScores and .rankOnly must be booleans');
  if (
    !Array.isArray(x.positions) ||
    !x.positions.every((p) => isPosition(p?.position) && isNumberOrNull(p.score) && isNumberOrNull(p.rank))
  ) {
    fail(`indicators.positions must be { position (0–${MAX_POSITION}), score, rank } entries (numbers or null)`);
  }
  if (new Set(x.positions.map((p) => p.position)).size !== x.positions.length)
    fail('indicators.positions must name each position once');
  if (
    !Array.isArray(x.reviewers) ||
    !x.reviewers.every(
      (r) =>
        typeof r?.reviewer === 'string' &&
        members.has(r.reviewer) &&
        Number.isInteger(r.scores) &&
        r.scores > 0 &&
        isFiniteNumber(r.sum) &&
        isFiniteNumber(r.sumOfSquares) &&
        r.sumOfSquares >= 0,
    )
  ) {
    fail('indicators.reviewers must be { reviewer (a member), scores ≥ 1, sum, sumOfSquares ≥ 0 } entries');
  }
  if (new Set(x.reviewers.map((r) => r.reviewer)).size !== x.reviewers.length)
    fail('indicators.reviewers must name each reviewer once');
  for (const key of ['scoreBlocks', 'rankBlocks'] as const) {
    const blocks = x[key];
    const valid =
      Array.isArray(blocks) &&
      blocks.every(
        (b) =>
          Number.isInteger(b?.group) &&
          b.group >= 0 &&
          b.group < members.size &&
          Array.isArray(b.values) &&
          Array.isArray(b.positions) &&
          b.values.length === b.positions.length &&
          b.values.every(isFiniteNumber) &&
          b.positions.every(isPosition) &&
          new Set(b.positions).size === b.positions.length,
      );
    if (!valid)
      fail(
        `indicators.${key} must be { group (0 to members − 1), values, positions (each once, 0–${MAX_POSITION}) } entries of equal length`,
      );
  }
}
