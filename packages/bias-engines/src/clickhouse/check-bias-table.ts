import { BiasStoreError } from '@council/bias-store';
import type { ClickhouseConnection } from './client.js';
import { clickhouseBiasColumns, clickhouseBiasSortingKey } from './table-sql.js';

const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Checks that `name` (a checked `clickhouseBiasTableName`) is the bias-records table as `table-sql.ts` defines it:
 * the same columns with the same types in the same order, a ReplacingMergeTree (or a replicated one) with the same
 * sorting key. A missing table is ClickHouse's error with its remedy (create it); any other table is an
 * `INVALID_OPTION` error saying what differs, since loading into it would lose what makes loads idempotent.
 */
export async function checkClickhouseBiasTable(connection: ClickhouseConnection, name: string): Promise<void> {
  const described = await connection.query<{ name: string; type: string }>(`DESCRIBE TABLE ${name}`);
  const actual = described.map((c) => `${c.name} ${c.type}`);
  const expected = clickhouseBiasColumns.map((c) => `${c.name} ${c.type}`);
  const differs = (what: string): BiasStoreError =>
    new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The ClickHouse table ${name} at ${connection.url} is not a table of Council bias records: ${what}. Give another table name (council store clickhouse-init creates one), or drop this one if it is an old copy.`,
    });
  if (actual.join(', ') !== expected.join(', ')) {
    const first = expected.findIndex((column, i) => actual[i] !== column);
    throw differs(
      first === -1
        ? `it has ${actual.length - expected.length} more columns than the ${expected.length} expected`
        : `its column ${first + 1} is ${actual[first] ?? 'missing'}, not ${expected[first]}`,
    );
  }
  const [database, table] = name.includes('.') ? name.split('.') : [undefined, name];
  const rows = await connection.query<{ engine: string; sorting_key: string }>(
    `SELECT engine, sorting_key FROM system.tables WHERE database = ${database === undefined ? 'currentDatabase()' : `'${database}'`} AND name = '${table}'`,
  );
  const row = rows[0];
  if (row === undefined) throw differs('it is not listed in system.tables');
  if (!/ReplacingMergeTree$/.test(row.engine))
    throw differs(
      `its engine is ${row.engine}, not ReplacingMergeTree (which keeps one row per record when the same records are loaded again)`,
    );
  if (squeeze(row.sorting_key) !== clickhouseBiasSortingKey)
    throw differs(`its ORDER BY is (${squeeze(row.sorting_key)}), not (${clickhouseBiasSortingKey})`);
}
