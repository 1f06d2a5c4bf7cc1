import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BiasStoreError } from '@council/bias-store';
import type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { clickhouseError, openClickhouse, redactClickhouseUrl } from './client.js';

let server: ClickhouseTestServer;
beforeAll(async () => {
  server = await startClickhouseTestServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function failure(work: () => Promise<unknown>): Promise<BiasStoreError> {
  try {
    await work();
  } catch (error) {
    if (BiasStoreError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a BiasStoreError');
}

describe('openClickhouse', () => {
  it('runs statements, inserts JSONEachRow rows and reads them back (64-bit integers as strings, nulls as null)', async () => {
    const ch = await openClickhouse({ url: server.url });
    try {
      await ch.command('CREATE TABLE probe (k String, n Nullable(Int32), big UInt64) ENGINE = MergeTree ORDER BY k');
      await ch.insert('probe', [
        { k: 'b', n: null, big: '18446744073709551615' },
        { k: 'a', n: -3, big: 7 },
      ]);
      expect(await ch.query('SELECT k, n, big FROM probe ORDER BY k')).toEqual([
        { k: 'a', n: -3, big: '7' },
        { k: 'b', n: null, big: '18446744073709551615' },
      ]);
    } finally {
      await ch.close();
    }
  });

  it('inserts RowBinary rows whole, doubles bit for bit (18.16 misreads some decimal doubles: 7.901771443076972e-81 as …971e-81)', async () => {
    const ch = await openClickhouse({ url: server.url });
    try {
      await ch.command('CREATE TABLE doubles (i UInt8, x Nullable(Float64)) ENGINE = MergeTree ORDER BY i');
      const values = [7.901771443076972e-81, 5.246991167653586e210, null, 0.1, -0];
      const rows = Buffer.concat(
        values.map((x, i) =>
          x === null
            ? Buffer.from([i, 1])
            : Buffer.concat([Buffer.from([i, 0]), Buffer.from(new Float64Array([x]).buffer)]),
        ),
      );
      await ch.insertRowBinary({ table: 'doubles', columns: ['i', 'x'], rows });
      expect((await ch.query<{ x: number | null }>('SELECT x FROM doubles ORDER BY i')).map((r) => r.x)).toEqual(
        values,
      );
      // The same values as JSON text do not all arrive (the reason the loader sends RowBinary).
      await ch.insert('doubles', [{ i: 9, x: 7.901771443076972e-81 }]);
      expect(await ch.query('SELECT x FROM doubles WHERE i = 9')).toEqual([{ x: 7.901771443076971e-81 }]);
    } finally {
      await ch.close();
    }
  });

  it('names the server without its credentials when nothing listens there, and says what to do', async () => {
    const ch = await openClickhouse({ url: 'http://alice:s3cret@127.0.0.1:1' });
    const error = await failure(async () => await ch.query('SELECT 1'));
    await ch.close();
    expect(error.code).toBe('IO_ERROR');
    expect(error.message).toBe(
      'Cannot reach ClickHouse at http://127.0.0.1:1 to run a query: the connection was refused (nothing listens on that port). Check that the server runs and that the URL is its HTTP interface (e.g. http://127.0.0.1:8123), then retry.',
    );
    expect(error.message).not.toContain('s3cret');
    expect(error.message).not.toContain('alice');
  });

  it("gives the server's own reason and a remedy when it refuses (an unknown table, an unknown user)", async () => {
    const ch = await openClickhouse({ url: server.url });
    const table = await failure(async () => await ch.insert('missing_table', [{ k: 'a' }]));
    await ch.close();
    expect(table.message).toBe(
      `ClickHouse at ${server.url} refused to insert into missing_table: Table default.missing_table doesn't exist. (ClickHouse error 60); create the table first (council store clickhouse-init --url URL).`,
    );
    const stranger = await openClickhouse({ url: server.url.replace('http://', 'http://mallory:pw@') });
    const user = await failure(async () => await stranger.command('SELECT 1'));
    await stranger.close();
    expect(user.message).toMatch(
      new RegExp(
        `^ClickHouse at ${server.url} refused to run a statement: .*mallory.* \\(ClickHouse error 192\\); give a user the server knows in the URL`,
      ),
    );
    expect(user.message).not.toContain('pw@');
  });

  it('refuses a URL that is not http(s) before sending anything', async () => {
    await expect(openClickhouse({ url: 'tcp://127.0.0.1:9000' })).rejects.toThrow(
      /must start with http:\/\/ or https:\/\/.*not tcp:\/\//,
    );
    const notUrl = await failure(async () => await openClickhouse({ url: 'not a url' }));
    expect([notUrl.code, notUrl.message]).toEqual([
      'INVALID_OPTION',
      "The ClickHouse URL not a url is not a URL: give the server's HTTP interface, e.g. http://127.0.0.1:8123 (or http://user:password@host:8123).",
    ]);
    await expect(openClickhouse({ url: `${server.url}/db`, database: 'other' })).rejects.toThrow(
      /give it one way only/,
    );
  });
});

describe('clickhouseError', () => {
  it("reads a newer server's error format too", () => {
    const error = clickhouseError({
      url: 'http://h:8123',
      action: 'run a query',
      cause: new Error('Code: 81. DB::Exception: Database nope does not exist. (UNKNOWN_DATABASE) (version 24.3.1.1)'),
    });
    expect(error.message).toBe(
      'ClickHouse at http://h:8123 refused to run a query: Database nope does not exist. (UNKNOWN_DATABASE) (ClickHouse error 81); create the database first (council store clickhouse-init --url URL creates it), or give an existing one.',
    );
  });
});

describe('redactClickhouseUrl', () => {
  it('drops the user, the password and the parameters, keeps the database path', () => {
    expect(redactClickhouseUrl('https://u:p@ch.example:8443/analytics?password=x')).toBe(
      'https://ch.example:8443/analytics',
    );
    expect(redactClickhouseUrl('http://127.0.0.1:8123/')).toBe('http://127.0.0.1:8123');
  });
});
