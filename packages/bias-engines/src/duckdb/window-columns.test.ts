import type * as Duckdb from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { noRank } from '@council/bias-store';
import type { BiasRecordColumns } from '@council/bias-store';
import { loadDuckdb } from './load-duckdb.js';
import { streamWindowRecords } from './window-columns.js';

/**
 * The tables window-sql.ts leaves, written by hand: two sessions, the newer one ("s-new", place 1) with three records
 * whose `ord` (read order) runs 30, 10, 20 in the order `tagged` lists them — so they arrive out of read order — and
 * the older one ("s-old", place 0) with two records in order. A record excluded from the window (`excluded` 1) must
 * not appear.
 */
async function windowTables(): Promise<{
  read: (records: number) => Promise<BiasRecordColumns>;
  connection: Duckdb.DuckDBConnection;
  close: () => void;
}> {
  const { DuckDBInstance } = await loadDuckdb();
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  await connection.run(`CREATE TEMP TABLE tagged_rows AS SELECT * FROM (VALUES
    (30, 's-new', 'm/b', 'm/a', 2, 300, 7.5, 1, 1003.0, '1.2.0', 'coding', true, 0),
    (10, 's-new', 'm/a', 'm/b', 0, 100, NULL, 0, 1001.0, '1.2.0', 'coding', true, 0),
    (20, 's-new', 'm/a', 'm/c', 1, 200, 6.0, NULL, 1002.0, NULL, NULL, false, 0),
    (5, 's-old', 'm/c', 'm/a', 0, 50, 4.0, 0, 500.0, '1.1.0', 'math', true, 0),
    (6, 's-old', 'm/c', 'm/b', 1, 60, 5.0, 1, 501.0, '1.1.0', 'math', true, 0),
    (7, 's-old', 'm/z', 'm/b', 1, 60, 5.0, 1, 502.0, '1.1.0', 'math', true, 1)
  ) AS v(ord, session, reviewer, candidate, position, len, score, rank, ms, config, category, pido, excluded)`);
  await connection.run('CREATE TEMP VIEW tagged AS SELECT * FROM tagged_rows');
  await connection.run(`CREATE TEMP TABLE session_places AS SELECT * FROM (VALUES
    ('s-old', 500.0, 2, 0), ('s-new', 1001.0, 3, 1)) AS v(session, key, n, place)`);
  await connection.run(`CREATE TEMP TABLE window_names AS SELECT * FROM (VALUES
    (0, 'm/c'), (0, 'm/a'), (0, 'm/b'), (1, '1.2.0'), (1, '1.1.0'), (2, 'math'), (2, 'coding')) AS v(kind, name)`);
  return {
    read: async (records) => (await streamWindowRecords(connection, records)).complete(),
    connection,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

describe('streamWindowRecords', () => {
  it("writes each session's records in read order, in window order, a session that arrived out of order read again", async () => {
    const tables = await windowTables();
    try {
      const columns = await tables.read(5);
      expect(columns.sessionIds).toEqual(['s-old', 's-new']);
      expect([...columns.sessionTime]).toEqual([500, 1001]);
      expect([...columns.sessionStart]).toEqual([0, 2, 5]);
      expect(columns.models).toEqual(['m/a', 'm/b', 'm/c']);
      expect(columns.configVersions).toEqual(['1.1.0', '1.2.0']);
      expect(columns.queryCategories).toEqual(['coding', 'math']);
      // s-old's two records (ord 5, 6), then s-new's by ord: 10, 20, 30.
      expect([...columns.session]).toEqual([0, 0, 1, 1, 1]);
      expect([...columns.reviewer]).toEqual([2, 2, 0, 0, 1]);
      expect([...columns.candidate]).toEqual([0, 1, 1, 2, 0]);
      expect([...columns.position]).toEqual([0, 1, 0, 1, 2]);
      expect([...columns.responseLengthChars]).toEqual([50, 60, 100, 200, 300]);
      expect([...columns.score]).toEqual([4, 5, Number.NaN, 6, 7.5]);
      expect([...columns.rankPosition]).toEqual([0, 1, 0, noRank, 1]);
      expect([...columns.time]).toEqual([500, 501, 1001, 1002, 1003]);
      expect([...columns.configVersion]).toEqual([1, 1, 2, 0, 2]);
      expect([...columns.queryCategory]).toEqual([2, 2, 1, 0, 1]);
      expect([...columns.positionIsDisplayOrder]).toEqual([1, 1, 1, 0, 1]);
    } finally {
      tables.close();
    }
  });

  it('a report read: the columns the statistics read, in the same places, and the display-order count', async () => {
    const tables = await windowTables();
    try {
      const { columns, omitted } = (await streamWindowRecords(tables.connection, 5, 'report')).complete();
      expect(columns.sessionIds).toEqual(['s-old', 's-new']);
      expect([...columns.sessionStart]).toEqual([0, 2, 5]);
      expect(columns.session).toBeUndefined();
      expect(columns.time).toBeUndefined();
      expect(columns.queryCategory).toBeUndefined();
      expect(columns.positionIsDisplayOrder).toBeUndefined();
      // The first test's values, s-new's records by ord (10, 20, 30) though they arrive 30, 10, 20.
      expect([...columns.reviewer]).toEqual([2, 2, 0, 0, 1]);
      expect([...columns.candidate]).toEqual([0, 1, 1, 2, 0]);
      expect([...columns.position]).toEqual([0, 1, 0, 1, 2]);
      expect([...columns.responseLengthChars]).toEqual([50, 60, 100, 200, 300]);
      expect([...columns.score]).toEqual([4, 5, Number.NaN, 6, 7.5]);
      expect([...columns.rankPosition]).toEqual([0, 1, 0, noRank, 1]);
      expect([...columns.configVersion]).toEqual([1, 1, 2, 0, 2]);
      // No session repeats a (reviewer, reviewed member): no fields read again; one record (ord 20) not display order.
      expect([...omitted.sessionOffset]).toEqual([-1, -1]);
      expect(omitted.time).toHaveLength(0);
      expect(omitted.positionNotDisplayOrder).toBe(1);
    } finally {
      tables.close();
    }
  });

  it("a report read reads a session with a repeat again for the fields it leaves out, in its records' order", async () => {
    const tables = await windowTables();
    try {
      // s-new gains ord 25: m/a on m/b again (as ord 10), another time, category and display-order flag.
      await tables.connection.run(
        "INSERT INTO tagged_rows VALUES (25, 's-new', 'm/a', 'm/b', 0, 100, NULL, 0, 1001.5, '1.2.0', 'math', false, 0)",
      );
      await tables.connection.run("UPDATE session_places SET n = 4 WHERE session = 's-new'");
      const { columns, omitted } = (await streamWindowRecords(tables.connection, 6, 'report')).complete();
      expect([...columns.sessionStart]).toEqual([0, 2, 6]);
      // s-new by ord: 10 (a on b), 20 (a on c), 25 (a on b), 30 (b on a).
      expect([...columns.reviewer]).toEqual([2, 2, 0, 0, 0, 1]);
      expect([...columns.candidate]).toEqual([0, 1, 1, 2, 1, 0]);
      expect([...columns.responseLengthChars]).toEqual([50, 60, 100, 200, 100, 300]);
      // s-new's four records from index 0 of the omitted fields, s-old none.
      expect([...omitted.sessionOffset]).toEqual([-1, 0]);
      expect([...omitted.time]).toEqual([1001, 1002, 1001.5, 1003]);
      expect([...omitted.queryCategory]).toEqual([1, 0, 2, 1]);
      expect([...omitted.positionIsDisplayOrder]).toEqual([1, 0, 0, 1]);
      // ords 20 and 25, counted once each though s-new was read twice more (out of order, then for its repeat).
      expect(omitted.positionNotDisplayOrder).toBe(2);
    } finally {
      tables.close();
    }
  });

  it('gives each column as narrow as its values: 8-bit ids, positions and config versions, 16-bit lengths, 32-bit scores', async () => {
    const tables = await windowTables();
    try {
      const all = await tables.read(5);
      const { columns } = (await streamWindowRecords(tables.connection, 5, 'report')).complete();
      for (const read of [all, columns]) {
        // Three members and two config versions; positions up to 2; lengths up to 300; scores 4, 5, 6 and 7.5.
        expect(read.reviewer).toBeInstanceOf(Uint8Array);
        expect(read.candidate).toBeInstanceOf(Uint8Array);
        expect(read.configVersion).toBeInstanceOf(Uint8Array);
        expect(read.position).toBeInstanceOf(Uint8Array);
        expect(read.responseLengthChars).toBeInstanceOf(Uint16Array);
        expect(read.score).toBeInstanceOf(Float32Array);
        expect(read.rankPosition).toBeInstanceOf(Uint32Array);
      }
    } finally {
      tables.close();
    }
  });

  it('widens a column when a later chunk brings a value it cannot hold, keeping the values already written', async () => {
    const tables = await windowTables();
    try {
      // A third session, newest (place 2), of 3,000 records (two chunks of DuckDB's 2,048 rows): record k, read k-th
      // (ord 1,000 + k), shows position k % 200 and length k % 250 to reviewer m/a about m/b with score k % 10 — all
      // fitting 8 bits and 32-bit floats — but for its last record: position 70,000, length 300 and score 7.3 (not a
      // 32-bit float), which must widen the columns to 32 bits, 16 bits and 64 bits.
      await tables.connection.run(`INSERT INTO tagged_rows
        SELECT 1000 + k, 's-big', 'm/a', 'm/b', CASE WHEN k = 2999 THEN 70000 ELSE k % 200 END,
               CASE WHEN k = 2999 THEN 300 ELSE k % 250 END, CASE WHEN k = 2999 THEN 7.3 ELSE k % 10 END,
               NULL, 2000.0 + k, '1.2.0', 'math', true, 0
        FROM range(3000) AS r(k)`);
      await tables.connection.run("INSERT INTO session_places VALUES ('s-big', 2000.0, 3000, 2)");
      const { columns } = (await streamWindowRecords(tables.connection, 3005, 'report')).complete();
      expect(columns.position).toBeInstanceOf(Uint32Array);
      expect(columns.responseLengthChars).toBeInstanceOf(Uint16Array);
      expect(columns.score).toBeInstanceOf(Float64Array);
      const big = (column: ArrayLike<number>): number[] => Array.from(column).slice(5);
      const k = Array.from({ length: 3000 }, (_, i) => i);
      expect(big(columns.position)).toEqual(k.map((i) => (i === 2999 ? 70000 : i % 200)));
      expect(big(columns.responseLengthChars)).toEqual(k.map((i) => (i === 2999 ? 300 : i % 250)));
      expect(big(columns.score)).toEqual(k.map((i) => (i === 2999 ? 7.3 : i % 10)));
      // The first two sessions' records as before (the first test's values).
      expect([...columns.position.subarray(0, 5)]).toEqual([0, 1, 0, 1, 2]);
      expect([...columns.score.subarray(0, 5)]).toEqual([4, 5, Number.NaN, 6, 7.5]);
    } finally {
      tables.close();
    }
  });

  it('refuses a window whose sessions hold another number of records than it was told', async () => {
    const tables = await windowTables();
    try {
      await expect(tables.read(6)).rejects.toThrow(/the sessions hold 5 records, the window 6/);
    } finally {
      tables.close();
    }
  });
});
