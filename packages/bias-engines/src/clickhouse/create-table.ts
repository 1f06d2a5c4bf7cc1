import { checkClickhouseBiasTable } from './check-bias-table.js';
import { openClickhouse } from './client.js';
import { clickhouseBiasTableName, createClickhouseBiasTableSql } from './table-sql.js';

export interface CreateClickhouseBiasTableOptions {
  /** The server's HTTP interface, e.g. `http://127.0.0.1:8123` (a user and password go in it: `http://user:pw@host:8123`). */
  url: string;
  /** Default `council_bias_records`. */
  table?: string;
  /** Created if missing; default the server's default database (or the one the URL's path names). */
  database?: string;
}

export interface CreateClickhouseBiasTableResult {
  /** The server, without its user and password. */
  url: string;
  /** The table, as `database.table` when a database was given. */
  table: string;
  /** False when the table was already there (and is checked to be the same table). */
  created: boolean;
}

/**
 * `council store clickhouse-init`: creates the bias-records table (and its database, when one is given) if it does
 * not exist, with the DDL of `table-sql.ts`; an existing table is checked to have the same columns, engine and
 * sorting key. Safe to run again.
 */
export async function createClickhouseBiasTable(
  options: CreateClickhouseBiasTableOptions,
): Promise<CreateClickhouseBiasTableResult> {
  const name = clickhouseBiasTableName(options);
  const connection = await openClickhouse({ url: options.url });
  try {
    if (options.database !== undefined) await connection.command(`CREATE DATABASE IF NOT EXISTS ${options.database}`);
    const [exists] = await connection.query<{ result: number }>(`EXISTS TABLE ${name}`);
    await connection.command(createClickhouseBiasTableSql(name));
    await checkClickhouseBiasTable(connection, name);
    return { url: connection.url, table: name, created: exists?.result !== 1 };
  } finally {
    await connection.close();
  }
}
