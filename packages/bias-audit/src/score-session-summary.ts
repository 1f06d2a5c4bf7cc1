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

/** A reviewer → author pair's records in one session's answers scored by two reviewers or more. */
export interface ScorePairSummary {
  reviewer: string;
  author: string;
  count: number;
  /** Σ of its records' within-answer demeaned scores (score − the answer's mean score). */
  sum: number;
  /** Σ of its records' within-answer demeaned design rows, over the session's `columns`. */
  row: number[];
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
  /** Per reviewer → author pair, reviewer ≠ author. */
  pairs: ScorePairSummary[];
}

const columnPattern = /^(reviewer|self):.|^position:(0|[1-9]\d*)$/;

/** Checks one session's score part; `fail(what)` throws with the session named. */
export function checkScoreSessionSummary(s: ScoreSessionSummary, fail: (what: string) => never): void {
  if (typeof s !== 'object' || s === null) fail('score must be an object');
  const m = Array.isArray(s.columns) ? s.columns.length : -1;
  if (m < 0 || !s.columns.every((c) => typeof c === 'string' && columnPattern.test(c)) || new Set(s.columns).size !== m) {
    fail('score.columns must be distinct names such as reviewer:<model>, position:<n>, self:<model>');
  }
  const numbers = (values: unknown, spec: { length: number; what: string }): void => {
    if (!Array.isArray(values) || values.length !== spec.length || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) fail(`${spec.what} must be ${spec.length} finite number(s)`);
  };
  numbers(s.records, { length: m, what: 'score.records' });
  numbers(s.xtx, { length: m * m, what: 'score.xtx' });
  numbers(s.xty, { length: m, what: 'score.xty' });
  numbers([s.yty], { length: 1, what: 'score.yty' });
  if (!Array.isArray(s.answers) || !Array.isArray(s.pairs)) fail('score.answers and score.pairs must be arrays');
  for (const [j, a] of s.answers.entries()) {
    if (typeof a?.author !== 'string' || !Number.isInteger(a.lengthChars) || a.lengthChars < 0 || !Number.isInteger(a.count) || a.count < 1) {
      fail(`score.answers[${j}] needs an author, a whole lengthChars ≥ 0 and a whole count ≥ 1`);
    }
    numbers([a.meanScore], { length: 1, what: `score.answers[${j}].meanScore` });
    numbers(a.meanRow, { length: m, what: `score.answers[${j}].meanRow` });
  }
  for (const [j, p] of s.pairs.entries()) {
    if (typeof p?.reviewer !== 'string' || typeof p.author !== 'string' || p.reviewer === p.author || !Number.isInteger(p.count) || p.count < 1) {
      fail(`score.pairs[${j}] needs a reviewer, a different author and a whole count ≥ 1`);
    }
    numbers([p.sum], { length: 1, what: `score.pairs[${j}].sum` });
    numbers(p.row, { length: m, what: `score.pairs[${j}].row` });
  }
}
