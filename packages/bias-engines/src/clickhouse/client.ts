import type * as ClickhouseClient from '@clickhouse/client';
import { Readable } from 'node:stream';
import { BiasStoreError } from '@council/bias-store';

export interface OpenClickhouseOptions {
  /**
   * The server's HTTP interface, e.g. `http://127.0.0.1:8123`; a user and password go in it
   * (`http://user:password@host:8123`), and a path names the database (`http://host:8123/analytics`).
   */
  url: string;
  /** The database queries run in (default: the URL's path, else the server's default database). */
  database?: string;
  /** How long one request may take before it is abandoned (default 10 minutes: an insert of a large batch). */
  requestTimeoutMs?: number;
}

/** A connection to a ClickHouse server over HTTP; every failure is a `BiasStoreError` naming the server. */
export interface ClickhouseConnection {
  /** The URL without its user, password and parameters: what messages may show. */
  readonly url: string;
  /** Runs a query and returns its rows (read as JSONEachRow: 64-bit integers arrive as strings). */
  query: <Row = Record<string, unknown>>(sql: string) => Promise<Row[]>;
  /** Runs a query whose SQL names its FORMAT and yields the answer's bytes as they arrive (a large answer is never held whole). */
  stream: (sql: string) => AsyncIterable<Uint8Array>;
  /** Runs a statement that returns no rows (CREATE, OPTIMIZE, DROP…). */
  command: (sql: string) => Promise<void>;
  /** Inserts rows (JSON objects by column name) in one INSERT … FORMAT JSONEachRow, which the server applies whole. */
  insert: (table: string, rows: readonly object[]) => Promise<void>;
  /**
   * Inserts rows already encoded in ClickHouse's RowBinary format, one value per column in `columns`' order, in one
   * INSERT (applied whole). Binary Float64s arrive exactly: ClickHouse 18.16's text parser misreads some doubles.
   */
  insertRowBinary: (options: { table: string; columns: readonly string[]; rows: Uint8Array }) => Promise<void>;
  close: () => Promise<void>;
}

/** The URL as messages may show it: no user, no password, no parameters (where a password could also sit). */
export function redactClickhouseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url.includes('@') ? '(the URL given, not shown: it holds a user name)' : url;
  }
}

/** Network failures: the server could not be reached at all. */
const unreachable: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (nothing listens on that port)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed',
};

/** ClickHouse's error codes that have a clear remedy (old and new names share the numbers). */
const remedies: Record<number, string> = {
  60: 'create the table first (council store clickhouse-init --url URL)',
  81: 'create the database first (council store clickhouse-init --url URL creates it), or give an existing one',
  192: 'give a user the server knows in the URL: http://user:password@host:8123',
  193: 'give the right password in the URL: http://user:password@host:8123',
  194: 'this user needs a password: give it in the URL, http://user:password@host:8123',
  516: 'give a user and password the server accepts in the URL: http://user:password@host:8123',
  497: 'the user lacks a privilege this needs: ask the server administrator to grant it',
};

/**
 * The server's own text from a ClickHouse error message: 18.16 sends
 * `Code: 60, e.displayText() = DB::Exception: Table x doesn't exist., e.what() = DB::Exception`,
 * newer servers `Code: 60. DB::Exception: Table x does not exist. (UNKNOWN_TABLE) (version …)`.
 */
function serverText(message: string): { code: number; text: string } | undefined {
  const m =
    /^Code: (\d+)[.,]\s*(?:e\.displayText\(\) = )?(?:DB::Exception: )?([\s\S]*?)(?:, e\.what\(\) = [\w:]+)?\s*(?:\(version [^)]*\))?\s*$/.exec(
      message.trim(),
    );
  if (m === null) return undefined;
  return { code: Number(m[1]), text: m[2]!.replace(/\s+/g, ' ').trim() };
}

/** Turns what `@clickhouse/client` throws into a `BiasStoreError` that says what failed, where, and what to do. */
export function clickhouseError(options: { url: string; action: string; cause: unknown }): BiasStoreError {
  const { url, action, cause } = options;
  const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  const network = typeof errno === 'string' ? unreachable[errno] : undefined;
  if (network !== undefined || /^Timeout error/i.test(message)) {
    return new BiasStoreError({
      code: 'IO_ERROR',
      message: `Cannot reach ClickHouse at ${url} to ${action}: ${network ?? 'no answer before the request timed out'}. Check that the server runs and that the URL is its HTTP interface (e.g. http://127.0.0.1:8123), then retry.`,
      cause,
    });
  }
  const server = serverText(message);
  if (server !== undefined) {
    const remedy = remedies[server.code];
    return new BiasStoreError({
      code: 'IO_ERROR',
      message: `ClickHouse at ${url} refused to ${action}: ${server.text} (ClickHouse error ${server.code})${remedy === undefined ? '.' : `; ${remedy}.`}`,
      cause,
    });
  }
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `ClickHouse at ${url} failed to ${action}: ${message.replace(/\s+/g, ' ').trim()}.`,
    cause,
  });
}

/** `@clickhouse/client`, loaded only when a ClickHouse command runs (the embedded path never needs it). */
async function loadClickhouseClient(): Promise<typeof ClickhouseClient> {
  const module = (await import('@clickhouse/client')) as typeof ClickhouseClient & {
    default?: typeof ClickhouseClient;
  };
  // A CommonJS package: Node's ESM loader gives its named exports, some bundlers only `default`.
  return typeof module.createClient === 'function' ? module : module.default!;
}

/** Reads a response to its end (an INSERT's is empty), so the connection returns to the pool. */
async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const chunk of stream) void chunk;
}

/** Checks a URL before it reaches the client, whose own messages would not say how to fix it. */
function checkedUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The ClickHouse URL ${redactClickhouseUrl(url)} is not a URL: give the server's HTTP interface, e.g. http://127.0.0.1:8123 (or http://user:password@host:8123).`,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The ClickHouse URL ${redactClickhouseUrl(url)} must start with http:// or https:// (ClickHouse's HTTP interface, port 8123 by default), not ${parsed.protocol}//.`,
    });
  }
  return parsed;
}

/**
 * Opens a connection to a ClickHouse server (nothing is sent until the first call). Works with servers as old as
 * 18.16: the client sends no settings unless asked, and errors in either server generation's format are read.
 */
export async function openClickhouse(options: OpenClickhouseOptions): Promise<ClickhouseConnection> {
  const parsed = checkedUrl(options.url);
  const url = redactClickhouseUrl(options.url);
  if (options.database !== undefined && parsed.pathname.length > 1) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The ClickHouse URL ${url} names a database in its path and a database was given too: give it one way only.`,
    });
  }
  const { createClient, ClickHouseLogLevel } = await loadClickhouseClient();
  const client = createClient({
    url: options.url,
    ...(options.database === undefined ? {} : { database: options.database }),
    request_timeout: options.requestTimeoutMs ?? 600_000,
    // Its errors reach the caller as BiasStoreErrors; the client's own log would print them (and stacks) again.
    log: { level: ClickHouseLogLevel.OFF },
  });
  const run = async <T>(action: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw clickhouseError({ url, action, cause: error });
    }
  };
  return {
    url,
    query: async <Row>(sql: string) =>
      await run(
        'run a query',
        async () => await (await client.query({ query: sql, format: 'JSONEachRow' })).json<Row>(),
      ),
    stream: async function* (sql) {
      const answer = await run('run a query', async () => await client.exec({ query: sql }));
      try {
        for await (const chunk of answer.stream as AsyncIterable<Uint8Array>) yield chunk;
      } catch (error) {
        throw clickhouseError({ url, action: 'read an answer', cause: error });
      } finally {
        answer.stream.destroy();
      }
    },
    command: async (sql) => {
      await run('run a statement', async () => await client.command({ query: sql }));
    },
    insert: async (table, rows) => {
      await run(
        `insert into ${table}`,
        async () => await client.insert({ table, values: rows, format: 'JSONEachRow' }),
      );
    },
    insertRowBinary: async ({ table, columns, rows }) => {
      await run(`insert into ${table}`, async () => {
        const result = await client.exec({
          query: `INSERT INTO ${table} (${columns.join(', ')}) FORMAT RowBinary`,
          values: Readable.from([rows]),
        });
        await drain(result.stream);
      });
    },
    close: async () => await client.close(),
  };
}
