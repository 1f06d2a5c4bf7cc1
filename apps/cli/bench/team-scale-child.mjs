// One row of the team-scale benchmark as a whole process, calling the built packages (packages/*/dist) directly:
// what `council bias-report --engine duckdb|clickhouse` and `council store export --to clickhouse` do, for as long
// as the CLI does not have them. Prints one JSON line on stdout: phase times (s) and the heap/RSS after each phase.
//
//   node team-scale-child.mjs duckdb-report     --input DIR --now T --sessions N --days D --out FILE
//   node team-scale-child.mjs clickhouse-load   --input DIR --url URL --table NAME
//   node team-scale-child.mjs clickhouse-report --url URL --table NAME --now T --sessions N --days D --out FILE
//   node team-scale-child.mjs embedded-columns  --input DIR --now T --sessions N --days D --out FILE
//   node team-scale-child.mjs embedded-phases   --input DIR --now T --sessions N --days D --out FILE
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const store = await import(pathToFileURL(`${root}packages/bias-store/dist/index.js`).href);
const engines = await import(pathToFileURL(`${root}packages/bias-engines/dist/index.js`).href);
const audit = await import(pathToFileURL(`${root}packages/bias-audit/dist/index.js`).href);

const [mode, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    input: { type: 'string' },
    url: { type: 'string' },
    table: { type: 'string' },
    now: { type: 'string' },
    sessions: { type: 'string' },
    days: { type: 'string' },
    out: { type: 'string' },
  },
});

const started = performance.now();
const phases = {};
const memory = {};
let last = started;
/** Ends a phase: its time since the last phase ended, and the heap and RSS at its end. */
/** With --expose-gc, the heap is collected first (not timed), so heapUsed is what the phase's results retain. */
function phase(name) {
  phases[name] = (performance.now() - last) / 1000;
  globalThis.gc?.();
  const m = process.memoryUsage();
  memory[name] = {
    rssMb: m.rss / 2 ** 20,
    heapUsedMb: m.heapUsed / 2 ** 20,
    externalMb: (m.external + m.arrayBuffers) / 2 ** 20,
  };
  last = performance.now();
}

function need(name) {
  if (typeof engines[name] !== 'function') {
    console.error(`@council/bias-engines' dist has no ${name} yet (build it, or wait for it to land).`);
    process.exit(3);
  }
  return engines[name];
}

const window = () => ({
  window: { now: new Date(values.now), sessions: Number(values.sessions), days: Number(values.days) },
});
const reportOptions = () => ({ minSessions: 20, seed: 1, ...window() });
const extra = {};

/** The report of a read's columns (the window already applied, so the bounds only label it), written to --out. */
function reduce(columns) {
  const report = audit.aggregateBiasAudit(columns, reportOptions());
  phase('reduce');
  writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
  extra.sessions = columns.sessionIds.length;
}

switch (mode) {
  case 'duckdb-report': {
    const read = await need('duckdbBiasRead')({ inputs: [values.input], ...window() });
    extra.kept = read.columns.length;
    phase('read');
    reduce(read.columns);
    break;
  }
  case 'clickhouse-load': {
    await need('createClickhouseBiasTable')({ url: values.url, table: values.table });
    phase('create');
    const result = await need('exportBiasRecordsToClickhouse')({
      inputs: [values.input],
      url: values.url,
      table: values.table,
    });
    extra.records = result.records;
    extra.batches = result.batches;
    phase('load');
    break;
  }
  case 'clickhouse-report': {
    const read = await need('clickhouseBiasRead')({ url: values.url, table: values.table, ...window() });
    extra.kept = read.columns.length;
    phase('read');
    reduce(read.columns);
    break;
  }
  case 'embedded-columns': {
    // The embedded report's own route (what bias-report does), in two phases: the reader's columns, then the reducer.
    const read = await store.readBiasRecords({ inputs: [values.input], ...window(), parquet: engines.biasParquet });
    extra.kept = read.columns.length;
    phase('read');
    reduce(read.columns);
    break;
  }
  case 'embedded-phases': {
    // Where the embedded path's memory goes: the reader's columns, the JS summaries, the reducer.
    const read = await store.readBiasRecords({ inputs: [values.input], ...window(), parquet: engines.biasParquet });
    extra.kept = read.columns.length;
    phase('read');
    const summaries = audit.summarizeBiasSessions(read.columns);
    phase('summarize');
    const report = audit.aggregateBiasAudit(summaries, reportOptions());
    phase('reduce');
    writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
    break;
  }
  default:
    console.error(`unknown mode ${mode}`);
    process.exit(2);
}
console.log(JSON.stringify({ mode, seconds: (performance.now() - started) / 1000, phases, memory, ...extra }));
