import type { SessionCheck } from './internal/session-check.js';
import { isFiniteNumber } from './internal/session-check.js';
import { MAX_POSITION } from './internal/window-observations.js';

/**
 * One answer (one candidate of one session) as the score model sees it: its scored records' count and mean
 * score, and their mean design row (`meanRow[j]`: the share of its records that set `columns[j]`).
 */
export interface ScoreAnswerSummary {
  /** The answering member (`model_id`). */
  author: string;
  lengthChars: number;
  /** Scored records of this answer. */
  count: number;
  meanScore: number;
  /** Over the session's `columns`. */
  meanRow: number[];
}

/**
 * One scored record of a reviewer on another member's answer, in an answer scored by two reviewers or more: what
 * affinity (the reviewer → author pair's residuals) needs. Its demeaned design row is rebuilt from it — its
 * reviewer's and its position's columns, less its answer's `meanRow` — so it takes four values, not a row.
 */
export interface ScorePairSummary {
  reviewer: string;
  author: string;
  /** The position the answer was shown to this reviewer at. */
  position: number;
  /** Its score less its answer's mean score (ỹ). */
  deviation: number;
}

/**
 * What the score model needs of one session (`BiasSessionSummary.score`) — the "map" of the cross-session fit,
 * which only ever adds these up (`fitScoreModel` over several stores' summaries equals the fit over their
 * records together). The design
 * row of a scored record sets `reviewer:<its reviewer>`, `position:<where the answer was shown>` and, on the
 * reviewer's own answer, `self:<reviewer>`. Within each answer scored by two reviewers or more, rows and
 * scores are demeaned (x̃ = x − x̄, ỹ = y − ȳ); the sums below run over those answers' records.
 */
export interface ScoreSessionSummary {
  /** The design columns this session's scored records set, e.g. `reviewer:gpt`, `position:0`, `self:gpt`. */
  columns: string[];
  /** Per column: scored records setting it, in answers scored by two reviewers or more. */
  records: number[];
  /** X̃'X̃, `columns.length`² entries, row by row. */
  xtx: number[];
  /** X̃'ỹ. */
  xty: number[];
  /** ỹ'ỹ. */
  yty: number;
  /** Every answer with at least one scored record (answers scored once carry length information only). */
  answers: ScoreAnswerSummary[];
  /** Each scored record of a reviewer on another member's answer scored twice or more (reviewer ≠ author). */
  pairs: ScorePairSummary[];
}

const columnPattern = /^(reviewer|self):(.+)$|^position:(0|[1-9]\d{0,4})$/;

const isCount = (v: unknown, min: number): boolean => Number.isInteger(v) && (v as number) >= min;
/** Rounding of sums: two numbers this close (relative to their size) are equal. */
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Checks one session's score part (read from elsewhere, so nothing about it is trusted): shapes, ranges, and that
 * every name it uses is one of the session's members — a summary that passes cannot crash the fit, allocate by a
 * stray number, or pin a record on the wrong member.
 */
export function checkScoreSessionSummary(input: unknown, check: SessionCheck): asserts input is ScoreSessionSummary {
  const { members } = check;
  const fail: (what: string) => never = check.fail; // annotated, so a call narrows like a throw
  if (typeof input !== 'object' || input === null) fail('score must be an object');
  const s = input as Partial<ScoreSessionSummary>;
  if (!Array.isArray(s.columns)) fail('score.columns must be an array');
  const columns = s.columns;
  const m = columns.length;
  const reviewers = new Set<string>();
  for (const c of columns) {
    const match = typeof c === 'string' ? columnPattern.exec(c) : null;
    if (match === null)
      fail(
        `score.columns: ${JSON.stringify(c)} is not reviewer:<member>, self:<member> or position:<0–${MAX_POSITION}>`,
      );
    if (match[2] !== undefined && !members.has(match[2])) fail(`score.columns: ${c} names no member of the session`);
    if (match[3] !== undefined && Number(match[3]) > MAX_POSITION)
      fail(`score.columns: ${c} is beyond position ${MAX_POSITION}`);
    if (match[1] === 'reviewer') reviewers.add(match[2]!);
  }
  if (new Set(columns).size !== m) fail('score.columns must be distinct');
  const numbers = (values: unknown, spec: { length: number; what: string; valid?: (v: number) => boolean }): void => {
    if (
      !Array.isArray(values) ||
      values.length !== spec.length ||
      !values.every((v) => isFiniteNumber(v) && (spec.valid?.(v) ?? true))
    ) {
      fail(`${spec.what} must be ${spec.length} finite number(s)${spec.valid === undefined ? '' : ' in range'}`);
    }
  };
  numbers(s.records, { length: m, what: 'score.records', valid: (v) => isCount(v, 0) });
  numbers(s.xtx, { length: m * m, what: 'score.xtx' });
  const xtx = s.xtx!;
  for (let a = 0; a < m; a++) {
    if (xtx[a * m + a]! < -1e-9) fail("score.xtx must have a diagonal ≥ 0 (it is X̃'X̃)");
    for (let b = 0; b < a; b++)
      if (!close(xtx[a * m + b]!, xtx[b * m + a]!)) fail("score.xtx must be symmetric (it is X̃'X̃)");
  }
  numbers(s.xty, { length: m, what: 'score.xty' });
  numbers([s.yty], { length: 1, what: 'score.yty', valid: (v) => v >= 0 });
  if (!Array.isArray(s.answers) || !Array.isArray(s.pairs)) fail('score.answers and score.pairs must be arrays');
  const answerCount = new Map<string, number>();
  for (const [j, a] of s.answers.entries()) {
    if (typeof a?.author !== 'string' || !members.has(a.author) || answerCount.has(a.author))
      fail(`score.answers[${j}].author must be a member of the session, once`);
    answerCount.set(a.author, a.count);
    if (!isCount(a.lengthChars, 0) || !isCount(a.count, 1))
      fail(`score.answers[${j}] needs a whole lengthChars ≥ 0 and a whole count ≥ 1`);
    numbers([a.meanScore], { length: 1, what: `score.answers[${j}].meanScore` });
    numbers(a.meanRow, { length: m, what: `score.answers[${j}].meanRow`, valid: (v) => v >= -1e-12 && v <= 1 + 1e-12 });
  }
  for (const [j, p] of s.pairs.entries()) {
    if (typeof p?.reviewer !== 'string' || !reviewers.has(p.reviewer))
      fail(`score.pairs[${j}].reviewer must have a reviewer:<name> column`);
    if (typeof p.author !== 'string' || p.author === p.reviewer || !((answerCount.get(p.author) ?? 0) >= 2)) {
      fail(`score.pairs[${j}].author must be another member whose answer is scored twice or more`);
    }
    if (!columns.includes(`position:${String(p.position)}`))
      fail(`score.pairs[${j}].position must have a position:<n> column`);
    numbers([p.deviation], { length: 1, what: `score.pairs[${j}].deviation` });
  }
}
