import type { BiasSessionSummaries, BiasSessionSummary } from '@council/bias-audit';
import type * as Duckdb from '@duckdb/node-api';
import { BIAS_SESSION_SUMMARY_VERSION } from '@council/bias-audit';
import { BiasStoreError } from '../bias-store-error.js';
import type { summaryRowColumns } from './summary-sql.js';
import { duckdbSummaryStatements } from './summary-sql.js';

export interface DuckdbSessionSummariesOptions {
  /** Store files, directories of stores, Parquet exports, or globs over file names, as `readBiasRecords` takes them. */
  inputs: readonly string[];
  cwd?: string;
  /** DuckDB's worker threads (default: DuckDB's, one per core). */
  threads?: number;
}

type Row = Record<(typeof summaryRowColumns)[number], unknown>;

/** JS's string order (UTF-16 code units), which the summaries' sorted names follow. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);


/**
 * `@duckdb/node-api`'s name, held in a variable: a bundler follows only a literal `import('…')`, and this native
 * addon cannot be bundled, so every bundle of this package (the apps, the tests' child processes) leaves it to be
 * resolved from node_modules when it is used.
 */
const DUCKDB_MODULE: string = '@duckdb/node-api';

/** `@duckdb/node-api`, loaded only when asked for (an optional dependency: the embedded path never needs it). */
export async function loadDuckdb(): Promise<typeof Duckdb> {
  try {
    return (await import(DUCKDB_MODULE)) as typeof Duckdb;
  } catch (error) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The DuckDB engine needs the optional package @duckdb/node-api, which could not be loaded (${String(error)}). Install it (npm install @duckdb/node-api@1.5.6-r.1) or leave out --engine duckdb.`,
    });
  }
}

/**
 * The per-session summaries of the bias records in `inputs` (JSONL stores, plain or gzip, or Parquet exports),
 * computed by SQL in an embedded DuckDB (`bias-read.ts`): the summaries `summarizeBiasSessions(readBiasRecords(…).columns)`
 * of @council/bias-audit gives without a window, for `aggregateBiasAudit` to reduce. Every record is taken: no window,
 * no filter.
 */
export async function duckdbSessionSummaries(options: DuckdbSessionSummariesOptions): Promise<BiasSessionSummaries> {
  const { duckdbBiasRead } = await import('./bias-read.js');
  return (await duckdbBiasRead({ ...options, now: new Date(8.64e15), maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY })).summaries;
}

/** The summaries of the sessions in the table `kept` (with `rec`, as window-sql.ts builds them), oldest session first. */
export async function readSessionSummaries(connection: Duckdb.DuckDBConnection): Promise<BiasSessionSummaries> {
  const statements = duckdbSummaryStatements();
  for (const statement of statements.slice(0, -1)) await connection.run(statement);
  const reader = await connection.runAndReadAll(statements.at(-1)!);
  const sessions = (reader.getColumnsJS()[0] ?? []).map((text) => sessionOf(JSON.parse(text as string) as Row));
  sessions.sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || byCodeUnits(a.session, b.session));
  return { version: BIAS_SESSION_SUMMARY_VERSION, sessions };
}

const numbers = (v: unknown): number[] => (v as (number | bigint)[]).map(Number);
const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** One row of the final statement as the summary's object (camelCase, names sorted as JS sorts them). */
function sessionOf(row: Row): BiasSessionSummary {
  const answers = row.score_answers as { author: string; lengthChars: bigint | number; count: number; meanScore: number; meanRow: number[] }[];
  const pairs = row.score_pairs as { reviewer: string; author: string; position: bigint | number; deviation: number }[];
  const blocks = (v: unknown): { group: number; values: number[]; positions: number[] }[] =>
    (v as { group: number; values: number[]; positions: (bigint | number)[] }[]).map((b) => ({ group: b.group, values: b.values, positions: numbers(b.positions) }));
  const lengthR = orNull(row.length_r);
  return {
    session: row.session as string,
    time: new Date(Number(row.time_ms)).toISOString(),
    records: Number(row.records),
    members: [...(row.members as string[])].sort(byCodeUnits),
    configVersions: [...(row.config_versions as string[])].sort(byCodeUnits),
    score: {
      columns: row.score_columns as string[],
      records: numbers(row.score_records),
      xtx: numbers(row.score_xtx),
      xty: numbers(row.score_xty),
      yty: Number(row.score_yty),
      answers: answers.map((a) => ({ author: a.author, lengthChars: Number(a.lengthChars), count: Number(a.count), meanScore: a.meanScore, meanRow: a.meanRow })),
      pairs: pairs.map((p) => ({ reviewer: p.reviewer, author: p.author, position: Number(p.position), deviation: p.deviation })),
    },
    indicators: {
      scoredRecords: Number(row.scored_records),
      meanScore: orNull(row.mean_score),
      lengthCorrelation: lengthR === null ? null : { r: lengthR, answers: Number(row.length_answers) },
      positionSpread: orNull(row.position_spread),
      primacy: orNull(row.primacy),
      recency: orNull(row.recency),
      anchoring: orNull(row.anchoring),
      positions: (row.positions as { position: bigint | number; score: number | null; rank: number | null }[]).map((p) => ({ position: Number(p.position), score: p.score, rank: p.rank })),
      reviewers: (row.reviewers as { reviewer: string; scores: number; sum: number; sumOfSquares: number }[]).map((r) => ({ reviewer: r.reviewer, scores: r.scores, sum: r.sum, sumOfSquares: r.sumOfSquares })),
      positionedScores: row.positioned_scores === true,
      rankOnly: row.rank_only === true,
      scoreBlocks: blocks(row.score_blocks),
      rankBlocks: blocks(row.rank_blocks),
    },
  };
}
