// Some tests drive programs Debian packages: the HTML report and the web UI run in Debian's chromium (driven by
// playwright-core), and the ClickHouse engine is tested against Debian's clickhouse-server started on 127.0.0.1.
// On a fresh Debian machine running as root, install what is missing in one apt-get run; elsewhere, say what to do.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const clickhouseServerPath = process.env.CLICKHOUSE_SERVER_PATH ?? '/usr/sbin/clickhouse-server';

const needs = [
  { path: chromiumPath, pkg: 'chromium', env: 'CHROMIUM_PATH', why: "the HTML report's and the web UI's browser tests" },
  { path: clickhouseServerPath, pkg: 'clickhouse-server', env: 'CLICKHOUSE_SERVER_PATH', why: 'the ClickHouse engine tests' },
];

export function ensureDebianPackages() {
  const missing = needs.filter((n) => !existsSync(n.path));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    for (const n of missing) {
      console.error(`${n.pkg} was not found at ${n.path}; ${n.why} need it. Install Debian's "${n.pkg}" package (apt-get install ${n.pkg}), or set ${n.env} to its binary.`);
    }
    process.exit(1);
  }
  const packages = missing.map((n) => n.pkg);
  console.error(`Installing Debian's ${packages.join(' and ')} for the tests…`);
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...packages]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`"apt-get ${args.join(' ')}" failed; install ${packages.join(' ')} by hand and run again.`);
      process.exit(1);
    }
  }
}
