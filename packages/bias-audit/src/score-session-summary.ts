import { BiasAuditError } from './bias-audit-error.js';

/** The version of `ScoreSessionSummaries`' shape; a reader refuses any other. */
export const SCORE_SESSION_SUMMARY_VERSION = 1;

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
 * What the score model needs of one session — the "map" of the cross-session fit, which only ever adds these
 * up (`fitScoreModel` over several stores' summaries equals the fit over their records together). The design
 * row of a scored record sets `reviewer:<its reviewer>`, `position:<where the answer was shown>` and, on the
 * reviewer's own answer, `self:<reviewer>`. Within each answer scored by two reviewers or more, rows and
 * scores are demeaned (x̃ = x − x̄, ỹ = y − ȳ); the sums below run over those answers' records.
 */
export interface ScoreSessionSummary {
  session: string;
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

/** A store's (or several merged stores') per-session summaries: versioned, JSON as is. */
export interface ScoreSessionSummaries {
  version: typeof SCORE_SESSION_SUMMARY_VERSION;
  sessions: ScoreSessionSummary[];
}

function invalid(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_INPUT', message: `Score session summaries: ${message}` });
}

const columnPattern = /^(reviewer|self):.|^position:(0|[1-9]\d*)$/;

function checkNumbers(values: unknown, spec: { length: number; what: string }): void {
  if (!Array.isArray(values) || values.length !== spec.length || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw invalid(`${spec.what} must be ${spec.length} finite number(s).`);
  }
}

/**
 * Checks summaries read from elsewhere (a file, another store, an analytics engine) before they are fitted:
 * the version, each session's shape, and that no session appears twice. Throws `INVALID_INPUT` naming the
 * first problem.
 */
export function assertScoreSessionSummaries(input: unknown): asserts input is ScoreSessionSummaries {
  if (typeof input !== 'object' || input === null) throw invalid('expected an object { version, sessions }.');
  const { version, sessions } = input as Partial<ScoreSessionSummaries>;
  if (version !== SCORE_SESSION_SUMMARY_VERSION) {
    throw invalid(`version ${String(version)} is not supported; this package reads version ${SCORE_SESSION_SUMMARY_VERSION} (summarise the records again with this version).`);
  }
  if (!Array.isArray(sessions)) throw invalid('sessions must be an array.');
  const seen = new Set<string>();
  for (const [at, s] of sessions.entries()) {
    const where = `sessions[${at}]`;
    if (typeof s !== 'object' || s === null || typeof s.session !== 'string' || s.session === '') throw invalid(`${where}.session must be a non-empty string.`);
    if (seen.has(s.session)) throw invalid(`session ${s.session} appears twice (the same session in two stores?); give each session once.`);
    seen.add(s.session);
    const m = Array.isArray(s.columns) ? s.columns.length : -1;
    if (m < 0 || !s.columns.every((c) => typeof c === 'string' && columnPattern.test(c)) || new Set(s.columns).size !== m) {
      throw invalid(`${where}.columns must be distinct names such as reviewer:<model>, position:<n>, self:<model>.`);
    }
    checkNumbers(s.records, { length: m, what: `${where}.records` });
    checkNumbers(s.xtx, { length: m * m, what: `${where}.xtx` });
    checkNumbers(s.xty, { length: m, what: `${where}.xty` });
    checkNumbers([s.yty], { length: 1, what: `${where}.yty` });
    if (!Array.isArray(s.answers) || !Array.isArray(s.pairs)) throw invalid(`${where}.answers and .pairs must be arrays.`);
    for (const [j, a] of s.answers.entries()) {
      if (typeof a?.author !== 'string' || !Number.isInteger(a.lengthChars) || a.lengthChars < 0 || !Number.isInteger(a.count) || a.count < 1) {
        throw invalid(`${where}.answers[${j}] needs an author, a whole lengthChars ≥ 0 and a whole count ≥ 1.`);
      }
      checkNumbers([a.meanScore], { length: 1, what: `${where}.answers[${j}].meanScore` });
      checkNumbers(a.meanRow, { length: m, what: `${where}.answers[${j}].meanRow` });
    }
    for (const [j, p] of s.pairs.entries()) {
      if (typeof p?.reviewer !== 'string' || typeof p.author !== 'string' || p.reviewer === p.author || !Number.isInteger(p.count) || p.count < 1) {
        throw invalid(`${where}.pairs[${j}] needs a reviewer, a different author and a whole count ≥ 1.`);
      }
      checkNumbers([p.sum], { length: 1, what: `${where}.pairs[${j}].sum` });
      checkNumbers(p.row, { length: m, what: `${where}.pairs[${j}].row` });
    }
  }
}

/**
 * The summaries of several stores as one (sessions in the order given). Throws `INVALID_INPUT` when a
 * session appears in two of them: a session is counted once.
 */
export function mergeScoreSessionSummaries(...parts: ScoreSessionSummaries[]): ScoreSessionSummaries {
  for (const part of parts) assertScoreSessionSummaries(part);
  const merged: ScoreSessionSummaries = { version: SCORE_SESSION_SUMMARY_VERSION, sessions: parts.flatMap((p) => p.sessions) };
  assertScoreSessionSummaries(merged);
  return merged;
}
