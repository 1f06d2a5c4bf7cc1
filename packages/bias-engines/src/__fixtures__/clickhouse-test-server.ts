import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's clickhouse-server (installed by `npm test`), or the binary `CLICKHOUSE_SERVER_PATH` names. */
export const clickhouseServerPath = process.env.CLICKHOUSE_SERVER_PATH ?? '/usr/sbin/clickhouse-server';

export interface ClickhouseTestServer {
  /** Its HTTP interface, e.g. `http://127.0.0.1:40123`. */
  url: string;
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
 * A ClickHouse server of its own for a test: HTTP on 127.0.0.1 only (no native TCP port, no interserver port), a
 * fresh temporary data directory, the passwordless `default` user accepted from 127.0.0.1 only. Resolves once it
 * answers `/ping`.
 */
export async function startClickhouseTestServer(): Promise<ClickhouseTestServer> {
  if (!existsSync(clickhouseServerPath)) {
    throw new Error(
      `clickhouse-server was not found at ${clickhouseServerPath}: install Debian's clickhouse-server (npm test does) or set CLICKHOUSE_SERVER_PATH.`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'council-clickhouse-'));
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
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const child: ChildProcess = spawn(clickhouseServerPath, [`--config-file=${join(dir, 'config.xml')}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
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
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`clickhouse-server exited (${child.exitCode}) before answering: ${log}`);
    }
    try {
      const response = await fetch(`${url}/ping`);
      if (response.ok && (await response.text()).startsWith('Ok.')) return { url, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`clickhouse-server did not answer on ${url} within 30 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
