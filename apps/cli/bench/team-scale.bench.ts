import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineBenchSuite, median } from '@council/bench';
import type { BenchValue } from '@council/bench';
import type { BenchClickhouse } from './team-scale-clickhouse.js';
import { startBenchClickhouse } from './team-scale-clickhouse.js';
import { ensureTeamStore, recordsPerSession, teamStoreNow, teamStoreVersion } from './team-scale-store.js';

// Issue 18's benchmark: 1,000,000 sessions (20 M records) — the report via DuckDB over Parquet (target ≤ 20 s, peak
// RSS ≤ 1 GB), the Parquet export's throughput, the ClickHouse load and report — against the embedded path over the
// same Parquet export in the same run. Every row is a whole child process over all N sessions, timed from outside,
// its peak RSS from GNU time; the rows run side by side, round after round.
//
//   COUNCIL_TEAM_SESSIONS   sessions (default 1,000,000; 20 records each)
//   COUNCIL_BENCH_CACHE     where the store and its export are kept between runs (default $TMPDIR/council-bench-cache)
//   COUNCIL_TEAM_ROUNDS     rounds of the rows (default 3, 1 above 100,000 sessions)
//   COUNCIL_TEAM_ROWS       rows to run, comma-separated: embedded,duckdb,clickhouse,columns,phases (default all;
//                           columns and phases split the embedded path in phases, with the memory after each)
//   COUNCIL_TEAM_REEXPORT=1 export again (and measure it) though the cache has the export
//   COUNCIL_TEAM_ROW_TIMEOUT seconds a row may take before it is stopped and reported as such (default 3600)
//   COUNCIL_TEAM_RSS_CAP_MB  resident MB at which a row is stopped and reported as such (default 10,240; 0: none)
const sessions = Number(process.env['COUNCIL_TEAM_SESSIONS'] ?? 1_000_000);
const records = sessions * recordsPerSession;
const cache = join(
  process.env['COUNCIL_BENCH_CACHE'] ?? join(tmpdir(), 'council-bench-cache'),
  `team-v${teamStoreVersion}-${sessions}`,
);
const rounds = Number(process.env['COUNCIL_TEAM_ROUNDS'] ?? (sessions > 100_000 ? 1 : 3));
const rowTimeout = Number(process.env['COUNCIL_TEAM_ROW_TIMEOUT'] ?? 3600);
const enabled = new Set((process.env['COUNCIL_TEAM_ROWS'] ?? 'embedded,duckdb,clickhouse,columns,phases').split(','));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const child = fileURLToPath(new URL('./team-scale-child.mjs', import.meta.url));
const rssCap = fileURLToPath(new URL('./team-scale-rss-cap.mjs', import.meta.url));
const rssCapMb = Number(process.env['COUNCIL_TEAM_RSS_CAP_MB'] ?? 10_240);
const parquet = join(cache, 'parquet');
const runDir = join(cache, 'run');
const label = `${sessions.toLocaleString('en-US')} sessions (${(records / 1e6).toLocaleString('en-US')} M records)`;
const window = ['--now', teamStoreNow, '--sessions', String(sessions), '--days', '100000'];

interface Run {
  seconds: number;
  /** User + system CPU time of the process and its threads: steadier than the wall on a shared, loaded machine. */
  cpuSeconds?: number;
  rssMb: number;
  status: string;
  /** The machine's 1-minute load average when the row ended (the machine is shared: a figure's context). */
  load?: number;
  /** The child's own JSON line (phases, memory), when it is team-scale-child.mjs. */
  detail?: Record<string, unknown>;
}

/** The environment of a row: this one's without the NODE_PATH that pnpm's tsx shim sets (a user's node has none). */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['NODE_PATH'];
  return env;
}

/**
 * Runs `node ARGS` under GNU time (peak RSS of the process) and `timeout` (a row that runs away is stopped and
 * reported, not waited for): the wall time seen from here, the peak RSS, and how it ended.
 */
function measure(args: string[]): Run {
  const rssFile = join(runDir, 'time.txt');
  rmSync(rssFile, { force: true });
  const started = performance.now();
  const result = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M %U %S',
      '-o',
      rssFile,
      'timeout',
      '--kill-after=10',
      String(rowTimeout),
      process.execPath,
      '--import',
      rssCap,
      ...args,
    ],
    {
      encoding: 'utf8',
      env: { ...childEnv(), COUNCIL_TEAM_RSS_CAP_MB: String(rssCapMb) },
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const seconds = (performance.now() - started) / 1000;
  // GNU time's last line (a killed process's starts with "Command terminated by signal"): peak KB, user s, system s.
  const [kb, user, system] = (readFileSync(rssFile, 'utf8').trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  const status =
    result.status === 0
      ? 'ok'
      : result.status === 124
        ? `timed out after ${rowTimeout} s`
        : result.stderr.includes('past the cap of')
          ? `stopped past the RSS cap of ${rssCapMb} MB`
          : `exit ${result.status}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  const run: Run = { seconds, cpuSeconds: user! + system!, rssMb: kb! / 1024, status, load: loadavg()[0]! };
  if (last.startsWith('{"mode"')) run.detail = JSON.parse(last) as Record<string, unknown>;
  return run;
}

const cli = (...args: string[]) => [bundle, ...args];
const help = (command: string) => execFileSync(process.execPath, [bundle, command, '--help'], { encoding: 'utf8' });

/** Whether the CLI has the engines yet (the lead wires them); until then the rows call the packages in a child. */
let cliEngines = { duckdb: false, clickhouse: false };
let tree = '';
let cliClickhouseExport = false;
let clickhouse: BenchClickhouse | null = null;
let exported: {
  seconds: number;
  cpuSeconds?: number;
  rssMb: number;
  load?: number;
  bytes: number;
  partitions: number;
  measuredAt: string;
} = {
  seconds: Number.NaN,
  rssMb: Number.NaN,
  bytes: 0,
  partitions: 0,
  measuredAt: '',
};
let generatedSeconds: number | null = null;

function bytesUnder(path: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      bytes += statSync(join(entry.parentPath, entry.name)).size;
      files++;
    }
  }
  return { bytes, files };
}

/** One statement over ClickHouse's HTTP interface, on a connection of its own (18.16 closes idle keep-alive ones). */
async function clickhouseSql(sql: string): Promise<string> {
  return await new Promise((resolve, reject) => {
    const request = httpRequest(
      `${clickhouse!.url}/?query=${encodeURIComponent(sql)}`,
      { method: 'POST', agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(text.trim()) : reject(new Error(`ClickHouse refused ${sql}: ${text}`)),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * Whether the bundled CLI can load a package (DuckDB's addon stays outside the bundle, resolved from node_modules),
 * asked of a plain node (tsx, which runs this file, resolves more than node does).
 */
function resolvable(name: string): boolean {
  const script = `require('node:module').createRequire(${JSON.stringify(bundle)}).resolve(${JSON.stringify(name)})`;
  return spawnSync(process.execPath, ['-e', script], { stdio: 'ignore', env: childEnv() }).status === 0;
}

/**
 * What the server did for the queries that finished since `since` (s since the epoch): their summed duration, the
 * largest memory one used, rows read and the result's size — how much of a ClickHouse report's time is the server's.
 */
async function serverQueries(since: number): Promise<Record<string, number | string>> {
  try {
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the log is flushed every 500 ms
    const line = await clickhouseSql(
      `SELECT count(), sum(query_duration_ms), max(memory_usage), sum(read_rows), sum(result_rows), sum(result_bytes) FROM system.query_log ` +
        `WHERE type = 2 AND event_time >= toDateTime(${since}) AND query NOT LIKE '%system.query_log%' FORMAT TabSeparated`,
    );
    const [queries, ms, memory, readRows, resultRows, resultBytes] = line.split('\t').map(Number);
    return {
      serverQueries: queries!,
      serverSeconds: ms! / 1000,
      serverQueryPeakMb: memory! / 2 ** 20,
      serverReadRows: readRows!,
      serverResultRows: resultRows!,
      serverResultMb: resultBytes! / 2 ** 20,
    };
  } catch (error) {
    return { serverQueriesError: String(error) };
  }
}

/** The report's JSON of a row's output: the CLI's document's `report`, or the child's report itself. */
function reportOf(file: string): string {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { kind?: string; report?: unknown };
  return JSON.stringify(parsed.kind === 'council-bias-report' ? parsed.report : parsed, null, 2);
}

/** How many lines of a report's pretty JSON differ from the embedded report's (0: byte for byte the same). */
function differingLines(file: string, reference: string): number {
  const a = reportOf(file).split('\n');
  const b = reference.split('\n');
  let differ = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) differ++;
  return differ;
}

interface Row {
  key: string;
  name: string;
  run: (round: number) => Promise<Run> | Run;
  /** The file the row writes its report to, compared with the embedded report. */
  report?: string;
}

const rows: Row[] = [];

function defineRows(): void {
  const embeddedReport = join(runDir, 'embedded.json');
  if (enabled.has('embedded')) {
    rows.push({
      key: 'embedded',
      name: `bias-report --format json, embedded (Council's reader), over the Parquet export: ${label}, all reported`,
      report: embeddedReport,
      run: () =>
        measure(cli('bias-report', '--format', 'json', '--input', parquet, ...window, '--output', embeddedReport)),
    });
  }
  if (enabled.has('duckdb')) {
    const out = join(runDir, 'duckdb.json');
    rows.push({
      key: 'duckdb',
      name: cliEngines.duckdb
        ? `bias-report --format json --engine duckdb over the Parquet export: ${label}`
        : `report via DuckDB over the Parquet export (child: duckdbBiasRead + aggregateBiasAudit): ${label}`,
      report: out,
      run: () =>
        cliEngines.duckdb
          ? measure(
              cli(
                'bias-report',
                '--format',
                'json',
                '--engine',
                'duckdb',
                '--input',
                parquet,
                ...window,
                '--output',
                out,
              ),
            )
          : measure([child, 'duckdb-report', '--input', parquet, ...window, '--out', out]),
    });
  }
  if (clickhouse !== null) {
    const url = clickhouse.url;
    const out = join(runDir, 'clickhouse.json');
    rows.push({
      key: 'clickhouse-load',
      name: `ClickHouse: load the Parquet export into council_bias_records (${cliClickhouseExport ? 'store export --to clickhouse' : 'child: exportBiasRecordsToClickhouse'}): ${label}`,
      run: async () => {
        await clickhouseSql('DROP TABLE IF EXISTS default.council_bias_records');
        clickhouse!.resetPeak();
        if (cliClickhouseExport)
          execFileSync(process.execPath, cli('store', 'clickhouse-init', '--url', url), { stdio: 'ignore' });
        const run = cliClickhouseExport
          ? measure(cli('store', 'export', '--to', 'clickhouse', '--url', url, '--input', parquet))
          : measure([child, 'clickhouse-load', '--input', parquet, '--url', url, '--table', 'council_bias_records']);
        run.detail = { ...run.detail, serverPeakRssMb: clickhouse!.peakRssMb() };
        try {
          run.detail['rows'] = Number(await clickhouseSql('SELECT count() FROM default.council_bias_records FINAL'));
          run.detail['bytesOnDisk'] = Number(
            await clickhouseSql(
              "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = 'default' AND table = 'council_bias_records' AND active",
            ),
          );
        } catch (error) {
          run.detail['tableError'] = String(error);
        }
        return run;
      },
    });
    rows.push({
      key: 'clickhouse',
      name: cliEngines.clickhouse
        ? `bias-report --format json --engine clickhouse: ${label}`
        : `report via ClickHouse (child: clickhouseBiasRead + aggregateBiasAudit): ${label}`,
      report: out,
      run: async () => {
        clickhouse!.resetPeak();
        const since = Math.floor(Date.now() / 1000);
        const run = cliEngines.clickhouse
          ? measure(
              cli(
                'bias-report',
                '--format',
                'json',
                '--engine',
                'clickhouse',
                '--url',
                url,
                ...window,
                '--output',
                out,
              ),
            )
          : measure([
              child,
              'clickhouse-report',
              '--url',
              url,
              '--table',
              'council_bias_records',
              ...window,
              '--out',
              out,
            ]);
        run.detail = { ...run.detail, serverPeakRssMb: clickhouse!.peakRssMb(), ...(await serverQueries(since)) };
        return run;
      },
    });
  }
  if (enabled.has('columns')) {
    rows.push({
      key: 'columns',
      name: `embedded path in phases as bias-report runs it (readBiasRecords, aggregateBiasAudit of the columns): ${label}`,
      report: join(runDir, 'columns.json'),
      run: (round) =>
        round === 0
          ? measure([
              '--expose-gc',
              child,
              'embedded-columns',
              '--input',
              parquet,
              ...window,
              '--out',
              join(runDir, 'columns.json'),
            ])
          : { seconds: Number.NaN, rssMb: Number.NaN, status: 'first round only' },
    });
  }
  if (enabled.has('phases')) {
    rows.push({
      key: 'phases',
      name: `embedded path in phases (readBiasRecords, summarizeBiasSessions, aggregateBiasAudit of the summaries): ${label}`,
      report: join(runDir, 'phases.json'),
      run: (round) =>
        round === 0
          ? measure([
              '--expose-gc',
              child,
              'embedded-phases',
              '--input',
              parquet,
              ...window,
              '--out',
              join(runDir, 'phases.json'),
            ])
          : { seconds: Number.NaN, rssMb: Number.NaN, status: 'first round only' },
    });
  }
}

const results = new Map<string, Run[]>();

export const suite = defineBenchSuite({
  name: 'team-scale',
  setup: async () => {
    mkdirSync(runDir, { recursive: true });
    const store = await ensureTeamStore(cache, sessions);
    generatedSeconds = store.generatedSeconds;
    process.stderr.write(
      `team-scale: ${label} in ${store.store}${generatedSeconds === null ? ' (cached)' : ` (written in ${generatedSeconds.toFixed(1)} s)`}\n`,
    );
    const exportDone = join(cache, 'parquet.done.json');
    if (!existsSync(exportDone) || process.env['COUNCIL_TEAM_REEXPORT'] === '1') {
      process.stderr.write(`team-scale: council store export --format parquet → ${parquet}\n`);
      const run = measure(cli('store', 'export', '--format', 'parquet', '--input', store.store, '--output', parquet));
      if (run.status !== 'ok') throw new Error(`store export failed: ${run.status}`);
      const { bytes, files } = bytesUnder(parquet);
      writeFileSync(
        exportDone,
        JSON.stringify({
          seconds: run.seconds,
          cpuSeconds: run.cpuSeconds,
          rssMb: run.rssMb,
          load: run.load,
          bytes,
          partitions: files,
          measuredAt: new Date().toISOString(),
        }) + '\n',
      );
    }
    exported = JSON.parse(readFileSync(exportDone, 'utf8')) as typeof exported;
    // The CLI's engines run only once the built bias-engines has the functions they call.
    const built = (await import(pathToFileURL(join(root, 'packages/bias-engines/dist/index.js')).href)) as Record<
      string,
      unknown
    >;
    const has = (name: string) => typeof built[name] === 'function';
    const engineFlag = help('bias-report').includes('--engine');
    cliEngines = {
      duckdb: engineFlag && has('duckdbBiasRead') && resolvable('@duckdb/node-api'),
      clickhouse: engineFlag && has('clickhouseBiasRead'),
    };
    cliClickhouseExport = help('store').includes('--to ') && has('exportBiasRecordsToClickhouse');
    tree = execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).slice(0, 100).trim();
    process.stderr.write(
      `team-scale: at ${tree}; the CLI runs the engines: ${JSON.stringify({ ...cliEngines, clickhouseExport: cliClickhouseExport })}\n`,
    );
    if (enabled.has('clickhouse')) {
      clickhouse = await startBenchClickhouse(join(cache, 'servers'));
      process.stderr.write(`team-scale: ClickHouse at ${clickhouse.url}\n`);
    }
    defineRows();
  },
  values: async () => {
    for (let round = 0; round < rounds; round++) {
      for (const row of rows) {
        let run: Run;
        try {
          run = await row.run(round);
        } catch (error) {
          run = { seconds: Number.NaN, rssMb: Number.NaN, status: `failed: ${String(error)}` };
        }
        if (run.status === 'first round only') continue;
        results.set(row.key, [...(results.get(row.key) ?? []), run]);
        process.stderr.write(
          `team-scale round ${round + 1}/${rounds}: ${row.key} ${run.seconds.toFixed(2)} s (CPU ${run.cpuSeconds?.toFixed(2) ?? '?'} s), ${run.rssMb.toFixed(0)} MB, ${run.status}, load ${run.load?.toFixed(1) ?? '?'}${run.detail ? ` ${JSON.stringify(run.detail)}` : ''}\n`,
        );
      }
    }
    writeFileSync(
      join(cache, `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify(
        { sessions, rounds, tree, cliEngines, cliClickhouseExport, exported, results: Object.fromEntries(results) },
        null,
        2,
      ) + '\n',
    );
    const values: BenchValue[] = [
      {
        name: `store export --format parquet: ${label}, throughput${exported.measuredAt ? ` (measured ${exported.measuredAt})` : ''}`,
        value: records / exported.seconds,
        unit: 'records/s',
      },
      {
        name: `store export --format parquet: time (load average ${exported.load?.toFixed(1) ?? '?'} when it ended)`,
        value: exported.seconds,
        unit: 's',
      },
      {
        name: 'store export --format parquet: CPU time, user + system',
        value: exported.cpuSeconds ?? Number.NaN,
        unit: 's',
      },
      { name: 'store export --format parquet: peak RSS', value: exported.rssMb, unit: 'MB' },
      {
        name: `Parquet export: size (${exported.partitions} day partitions)`,
        value: exported.bytes / 2 ** 20,
        unit: 'MiB',
      },
    ];
    const embedded = results.get('embedded')?.filter((r) => r.status === 'ok') ?? [];
    const embeddedReport = embedded.length > 0 ? reportOf(join(runDir, 'embedded.json')) : null;
    for (const row of rows) {
      const runs = results.get(row.key) ?? [];
      const ok = runs.filter((r) => r.status === 'ok');
      const failed = runs.find((r) => r.status !== 'ok');
      if (failed) process.stderr.write(`team-scale: ${row.key} did not finish: ${failed.status}\n`);
      const isTarget = row.key === 'duckdb';
      const n = ok.length === 1 ? 'one run' : `median of ${ok.length}`;
      values.push(
        {
          name: `${row.name}: wall (${n})`,
          value: ok.length ? median(ok.map((r) => r.seconds)) : Number.NaN,
          unit: 's',
          ...(isTarget ? { budget: 20 } : {}),
        },
        {
          name: `${row.key}: CPU time, user + system (${n})`,
          value: ok.length ? median(ok.map((r) => r.cpuSeconds ?? Number.NaN)) : Number.NaN,
          unit: 's',
        },
        {
          name: `${row.key}: peak RSS of the process (${n})`,
          value: ok.length ? median(ok.map((r) => r.rssMb)) : Number.NaN,
          unit: 'MB',
          ...(isTarget ? { budget: 1024 } : {}),
        },
      );
      if (['duckdb', 'clickhouse'].includes(row.key) && embedded.length > 0 && ok.length > 0) {
        values.push({
          name: `${row.key}: wall / embedded wall`,
          value: median(ok.map((r) => r.seconds)) / median(embedded.map((r) => r.seconds)),
          unit: '×',
        });
      }
      if (row.key === 'clickhouse-load' && ok.length > 0) {
        values.push({
          name: 'clickhouse-load: throughput',
          value: records / median(ok.map((r) => r.seconds)),
          unit: 'records/s',
        });
      }
      for (const run of ok.slice(-1)) {
        const detail = run.detail ?? {};
        const phases = (detail['phases'] ?? {}) as Record<string, number>;
        for (const [phase, seconds] of Object.entries(phases))
          values.push({ name: `${row.key}: ${phase} phase (last run, inside the process)`, value: seconds, unit: 's' });
        const memory = (detail['memory'] ?? {}) as Record<
          string,
          { rssMb: number; heapUsedMb: number; externalMb: number }
        >;
        for (const [phase, m] of Object.entries(memory))
          values.push({
            name: `${row.key}: after ${phase}: RSS / JS heap used / external`,
            value: m.rssMb,
            unit: `MB (heap ${m.heapUsedMb.toFixed(0)}, ext ${m.externalMb.toFixed(0)})`,
          });
        if (typeof detail['serverPeakRssMb'] === 'number')
          values.push({
            name: `${row.key}: ClickHouse server's peak RSS during the row`,
            value: detail['serverPeakRssMb'],
            unit: 'MB',
          });
        if (typeof detail['serverSeconds'] === 'number') {
          values.push(
            {
              name: `${row.key}: time the server spent on the row's ${String(detail['serverQueries'])} queries (system.query_log)`,
              value: detail['serverSeconds'],
              unit: 's',
            },
            {
              name: `${row.key}: the largest memory a query used on the server`,
              value: Number(detail['serverQueryPeakMb']),
              unit: 'MB',
            },
            {
              name: `${row.key}: what the queries returned to the client`,
              value: Number(detail['serverResultMb']),
              unit: `MB (${String(detail['serverResultRows'])} rows)`,
            },
          );
        }
        if (typeof detail['bytesOnDisk'] === 'number')
          values.push({ name: `${row.key}: the table on disk`, value: detail['bytesOnDisk'] / 2 ** 20, unit: 'MiB' });
      }
      if (
        row.report !== undefined &&
        row.key !== 'embedded' &&
        embeddedReport !== null &&
        ok.length > 0 &&
        existsSync(row.report)
      ) {
        values.push({
          name: `${row.key}: report lines differing from the embedded report (0 = byte for byte)`,
          value: differingLines(row.report, embeddedReport),
          unit: 'lines',
        });
      }
    }
    return values;
  },
  teardown: async () => {
    await clickhouse?.stop();
  },
});
