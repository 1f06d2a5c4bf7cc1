import type { BiasColumns } from '@council/bias-audit';
import type { EngineWindowOptions, ReadBiasRecordsResult } from '@council/bias-store';
import { CliError } from '../cli-error.js';

/** What reads `bias-report`'s records — parsing, checking, windowing, dropping repeats: Council itself, or an analytics engine. */
export const biasReportEngines = ['embedded', 'duckdb', 'clickhouse'] as const;
export type BiasReportEngine = (typeof biasReportEngines)[number];

/** What an engine reads: files (DuckDB reads stores and Parquet exports directly) or a ClickHouse table. */
export type EngineSource =
  | { engine: 'duckdb'; inputs: readonly string[]; cwd: string }
  | { engine: 'clickhouse'; url: string; table?: string | undefined; database?: string | undefined };

/** A ClickHouse URL as it may be shown: scheme, host, port and path, never a user name or password. */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  return parsed.toString().replace(/\/$/, '');
}

/** `--url`: an http(s) URL of a ClickHouse server's HTTP interface, checked before anything connects. */
export function checkClickhouseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError({
      code: 'USAGE',
      message: `--url expects the http(s) URL of a ClickHouse server's HTTP interface, such as http://127.0.0.1:8123, got "${url}".`,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError({
      code: 'USAGE',
      message: `--url expects an http:// or https:// URL (ClickHouse's HTTP interface, port 8123 by default), got ${parsed.protocol}//… .`,
    });
  }
  return url;
}

/** `--table name` or `--table database.name`, as the ClickHouse functions take them. */
export function clickhouseTableOptions(table: string | undefined): { table?: string; database?: string } {
  if (table === undefined) return {};
  const dot = table.indexOf('.');
  return dot === -1 ? { table } : { database: table.slice(0, dot), table: table.slice(dot + 1) };
}

/**
 * Reads the window in the engine: the reader's counts and the window's records as its columns — DuckDB's without the
 * per-record columns the statistics never read (`columns: 'report'`). The engine's module loads only here, so the
 * embedded path never loads DuckDB or the ClickHouse client.
 */
export async function readWithEngine(
  source: EngineSource,
  window: EngineWindowOptions,
): Promise<ReadBiasRecordsResult<BiasColumns>> {
  const engines = await import('@council/bias-engines');
  if (source.engine === 'duckdb')
    return await engines.duckdbBiasRead({ inputs: source.inputs, cwd: source.cwd, ...window, columns: 'report' });
  return await engines.clickhouseBiasRead({
    url: source.url,
    ...(source.table === undefined ? {} : { table: source.table }),
    ...(source.database === undefined ? {} : { database: source.database }),
    ...window,
  });
}
