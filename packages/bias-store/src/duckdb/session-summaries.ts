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

const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * One row of the final statement (parsed JSON) as the summary's object. Its lists of numbers and of objects are taken
 * as parsed, not copied: the SQL writes them with the summary's own field names in the summary's order (at 10,000
 * sessions copying them cost 0.5 s beside JSON.parse's 1.6 s). Members and config versions are sorted as JS sorts.
 */
function sessionOf(row: Row): BiasSessionSummary {
  const lengthR = orNull(row.length_r);
  const scoreSummary = {
    columns: row.score_columns,
    records: row.score_records,
    xtx: row.score_xtx,
    xty: row.score_xty,
    yty: Number(row.score_yty),
    answers: row.score_answers,
    pairs: row.score_pairs,
  } as BiasSessionSummary['score'];
  return {
    session: row.session as string,
    time: new Date(Number(row.time_ms)).toISOString(),
    records: Number(row.records),
    members: (row.members as string[]).sort(byCodeUnits),
    configVersions: (row.config_versions as string[]).sort(byCodeUnits),
    score: scoreSummary,
    indicators: {
      scoredRecords: Number(row.scored_records),
      meanScore: orNull(row.mean_score),
      lengthCorrelation: lengthR === null ? null : { r: lengthR, answers: Number(row.length_answers) },
      positionSpread: orNull(row.position_spread),
      primacy: orNull(row.primacy),
      recency: orNull(row.recency),
      anchoring: orNull(row.anchoring),
      positions: row.positions as BiasSessionSummary['indicators']['positions'],
      reviewers: row.reviewers as BiasSessionSummary['indicators']['reviewers'],
      positionedScores: row.positioned_scores === true,
      rankOnly: row.rank_only === true,
      scoreBlocks: row.score_blocks as BiasSessionSummary['indicators']['scoreBlocks'],
      rankBlocks: row.rank_blocks as BiasSessionSummary['indicators']['rankBlocks'],
    },
  };
}
