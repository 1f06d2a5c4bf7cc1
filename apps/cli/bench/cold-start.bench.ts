import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineBenchSuite, median } from '@council/bench';
import type { BenchValue } from '@council/bench';
import { writeBiasFixture } from './write-bias-fixture.js';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
let dir = '';

/**
 * Writes, as the process exits, the CPU time its main thread used (Linux's /proc/self/task/<pid>/schedstat, in ns)
 * to $COUNCIL_BENCH_MAIN_THREAD.
 */
const recordMainThread = [
  "import { readFileSync, writeFileSync } from 'node:fs';",
  'process.on("exit", () => writeFileSync(process.env.COUNCIL_BENCH_MAIN_THREAD,',
  'readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]));',
].join(' ');

/**
 * The main thread's CPU time of `node …args`, in ms. On a machine shared by several people this is the steadiest
 * figure to compare builds by: the wall clock moves with the load, and the process's CPU time with how much of V8's
 * background compiling and garbage collecting the scheduler let run; what the main thread itself ran is what a
 * user on a quiet machine waits for, less what the background threads take off its hands.
 */
function mainThreadMs(args: string[]): number {
  const file = join(dir, 'main-thread');
  execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(recordMainThread)}`, ...args],
    {
      stdio: 'ignore',
      env: { ...process.env, COUNCIL_BENCH_MAIN_THREAD: file },
    },
  );
  return Number(readFileSync(file, 'utf8')) / 1e6;
}

/** Every session of the 1,000-session fixture reported (the bias-report bench's row, and issue 28's 300 ms budget). */
const report = (format: string): string[] => [
  bundle,
  'bias-report',
  '--input',
  join(dir, 'bias-1000.jsonl'),
  '--format',
  format,
  '--now',
  new Date(Date.parse('2026-01-01T00:00:00Z') + 1000 * 60_000).toISOString(),
  '--sessions',
  '1000',
  '--days',
  '100000',
];

/** Medians of the main thread's CPU time of each command, run in turns (`runs` rounds). */
function mainThreadRows(commands: { name: string; args: string[] }[], runs: number): BenchValue[] {
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) commands.forEach((command, c) => times[c]!.push(mainThreadMs(command.args)));
  return commands.map((command, c) => ({
    name: `${command.name}: main-thread CPU (median of ${runs})`,
    value: median(times[c]!),
    unit: 'ms',
  }));
}

// Issue 8's target: `council --version` starts within 3× a bare `node -e 0` on the same machine. The values after
// the timed rows are the main thread's CPU time (Linux only) of the same starts and of issue 28's cold report.
export const suite = defineBenchSuite({
  name: 'cli',
  setup: async () => {
    dir = mkdtempSync(join(tmpdir(), 'council-cold-start-'));
    await writeBiasFixture(join(dir, 'bias-1000.jsonl'), 1000);
  },
  cases: [
    { name: 'node -e 0', iterations: 15, fn: () => execFileSync(process.execPath, ['-e', '0']) },
    {
      name: 'council --version',
      baseline: 'node -e 0',
      iterations: 15,
      fn: () => execFileSync(process.execPath, [bundle, '--version']),
    },
  ],
  values: () =>
    existsSync(`/proc/self/task/${process.pid}/schedstat`)
      ? mainThreadRows(
          [
            { name: 'node -e 0', args: ['-e', '0'] },
            { name: 'council --version', args: [bundle, '--version'] },
            { name: 'bias-report --format csv, 1,000 sessions all reported', args: report('csv') },
            { name: 'bias-report --format json, 1,000 sessions all reported', args: report('json') },
          ],
          11,
        )
      : [],
  teardown: () => rmSync(dir, { recursive: true, force: true }),
});
