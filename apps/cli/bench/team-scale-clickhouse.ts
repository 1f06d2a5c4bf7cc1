import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Debian's clickhouse-server, or the binary `CLICKHOUSE_SERVER_PATH` names. */
const serverPath = process.env['CLICKHOUSE_SERVER_PATH'] ?? '/usr/sbin/clickhouse-server';

export interface BenchClickhouse {
  url: string;
  /** The server's peak resident set since the last `resetPeak` (VmHWM), in MB. */
  peakRssMb: () => number;
  /** Starts a new peak (writes 5 to /proc/PID/clear_refs), so a row's peak is its own. */
  resetPeak: () => void;
  /** Stops the server and removes its data directory. */
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A ClickHouse server of the benchmark's own, as packages/bias-engines/src/__fixtures__/clickhouse-test-server.ts
 * starts one for the tests (HTTP on 127.0.0.1 only, a fresh data directory under `parent`), keeping its pid so the
 * benchmark can read the server's own peak memory, and logging queries (system.query_log), so the benchmark can say
 * how much of a row's time the server spent on them.
 */
export async function startBenchClickhouse(parent: string): Promise<BenchClickhouse> {
  if (!existsSync(serverPath))
    throw new Error(
      `clickhouse-server was not found at ${serverPath}: install Debian's clickhouse-server or set CLICKHOUSE_SERVER_PATH.`,
    );
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'clickhouse-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub));
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.xml'),
    `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>true</console></logger>
  <http_port>${port}</http_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>500</flush_interval_milliseconds></query_log>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
</yandex>
`,
  );
  writeFileSync(
    join(dir, 'users.xml'),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default><log_queries>1</log_queries></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const child = spawn(serverPath, [`--config-file=${join(dir, 'config.xml')}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const server: BenchClickhouse = {
    url,
    peakRssMb: () => Number(/VmHWM:\s+(\d+) kB/.exec(status())?.[1] ?? Number.NaN) / 1024,
    resetPeak: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    stop,
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`clickhouse-server exited (${child.exitCode}) before answering: ${log}`);
    }
    try {
      const response = await fetch(`${url}/ping`);
      if (response.ok && (await response.text()).startsWith('Ok.')) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`clickhouse-server did not answer on ${url} within 60 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
