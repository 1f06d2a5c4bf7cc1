import type * as Duckdb from '@duckdb/node-api';
import { BiasStoreError } from '@council/bias-store';

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
