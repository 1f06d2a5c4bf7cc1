import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineBenchSuite } from '@council/bench';
import { writeBiasFixture } from './write-bias-fixture.js';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const sessions = 100_000;
let dir = '';
let records = 0;
const store = () => join(dir, 'bias_metrics.jsonl');
const parquetDir = () => join(dir, 'export-parquet');
const jsonlDir = () => join(dir, 'export-jsonl');
const exportSeconds = { parquet: 0, jsonl: 0 };

/** The fixture writes one session a minute from 2026-01-01; every session in the window. */
const now = new Date(Date.parse('2026-01-01T00:00:00Z') + sessions * 60_000).toISOString();
const reportOf = (input: string) => [
  'bias-report',
  '--input',
  input,
  '--format',
  'json',
  '--now',
  now,
  '--sessions',
  String(sessions),
  '--days',
  '100000',
];

function run(args: string[]): void {
  execFileSync(process.execPath, [bundle, ...args], { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
}

function timedExport(format: 'parquet' | 'jsonl', output: string): number {
  const started = performance.now();
  run(['store', 'export', '--format', format, '--input', store(), '--output', output]);
  return (performance.now() - started) / 1000;
}

/** Peak resident set size of the whole child process, from GNU time. */
function peakRssMb(args: string[]): number {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bundle, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const kb = Number(result.stderr.trim().split('\n').at(-1));
  if (result.status !== 0 || !Number.isFinite(kb)) throw new Error(`measuring RSS failed: ${result.stderr}`);
  return kb / 1024;
}

function bytesUnder(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

// Issue 18: the export's throughput in records/s (whole process, one run each: the setup's), and bias-report over
// the Parquet export against the JSONL store it came from, every session reported, in the same run (medians).
export const suite = defineBenchSuite({
  name: 'export',
  setup: async () => {
    dir = mkdtempSync(join(tmpdir(), 'council-export-bench-'));
    records = await writeBiasFixture(store(), sessions);
    exportSeconds.parquet = timedExport('parquet', parquetDir());
    exportSeconds.jsonl = timedExport('jsonl', jsonlDir());
  },
  cases: [
    {
      name: 'bias-report --format json over the JSONL store: 100,000 sessions (2.5 M records), all reported',
      iterations: 3,
      fn: () => run(reportOf(store())),
    },
    {
      name: 'bias-report --format json over its Parquet export (70 day partitions), all reported',
      iterations: 3,
      baseline: 'bias-report --format json over the JSONL store: 100,000 sessions (2.5 M records), all reported',
      fn: () => run(reportOf(parquetDir())),
    },
  ],
  values: () => [
    {
      name: 'store export --format parquet, 100,000 sessions: throughput',
      value: records / exportSeconds.parquet,
      unit: 'records/s',
    },
    { name: 'store export --format parquet: time', value: exportSeconds.parquet, unit: 's' },
    {
      name: 'store export --format jsonl, 100,000 sessions: throughput',
      value: records / exportSeconds.jsonl,
      unit: 'records/s',
    },
    {
      name: 'store export --format parquet: peak RSS',
      value: peakRssMb([
        'store',
        'export',
        '--format',
        'parquet',
        '--input',
        store(),
        '--output',
        join(dir, 'export-rss'),
      ]),
      unit: 'MB',
    },
    { name: 'bias-report over the Parquet export: peak RSS', value: peakRssMb(reportOf(parquetDir())), unit: 'MB' },
    { name: 'bias-report over the JSONL store: peak RSS', value: peakRssMb(reportOf(store())), unit: 'MB' },
    { name: 'JSONL store size', value: statSync(store()).size / 2 ** 20, unit: 'MiB' },
    { name: 'Parquet export size', value: bytesUnder(parquetDir()) / 2 ** 20, unit: 'MiB' },
  ],
  teardown: () => rmSync(dir, { recursive: true, force: true }),
});
