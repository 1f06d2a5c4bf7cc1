import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregateBiasAudit } from '@council/bias-audit';
import { defineBenchSuite } from '@council/bench';
import { syntheticObservations } from '../src/__fixtures__/synthetic-sessions.js';
import { createBiasStore, duckdbSessionSummaries, exportBiasRecords, readBiasRecords, recordsFromObservations } from '../src/index.js';

// Issue 18 item 2: the report with its per-session map run by DuckDB (summaries equal to the JS map's to the bit) over
// a Parquet export and over the JSONL store it was exported from, against the embedded path (the JS reader and map)
// over the same export, every session reported, in the same run. COUNCIL_BENCH_DUCKDB_SESSIONS sets the sessions
// (a multiple of 1,000; default 100,000).
const sessions = Number(process.env['COUNCIL_BENCH_DUCKDB_SESSIONS'] ?? 100_000);
const now = new Date('2030-01-01T00:00:00Z');
let dir = '';
let whole = '';
let exported = '';
const mapSeconds = { parquet: 0, jsonl: 0 };
const embedded = `report over a ${sessions.toLocaleString('en-US')}-session Parquet export, embedded (readBiasRecords + aggregateBiasAudit)`;

/** The report with DuckDB's map over `inputs`, its map's seconds kept for the values. */
async function duckdbReport(inputs: string[], kind: keyof typeof mapSeconds): Promise<void> {
  const started = performance.now();
  const summaries = await duckdbSessionSummaries({ inputs });
  mapSeconds[kind] = (performance.now() - started) / 1000;
  aggregateBiasAudit(summaries, { now, resamples: 0 });
}

export const suite = defineBenchSuite({
  name: 'duckdb-summaries',
  setup: async () => {
    dir = mkdtempSync(join(tmpdir(), 'bias-duckdb-bench-'));
    // A 5-model council, 20 records a session: 1,000 sessions, copied with new session ids up to `sessions`.
    const thousand = join(dir, 'thousand', 'bias_metrics.jsonl');
    const store = createBiasStore({ path: thousand });
    const records = recordsFromObservations(syntheticObservations({ sessions: 1000 }), { consent: 1, hashSecret: null, query: 'How do I merge two sorted lists?' });
    for (let s = 0; s < 1000; s++) await store.append(records.slice(s * 20, s * 20 + 20));
    whole = join(dir, 'whole', 'bias_metrics.jsonl');
    mkdirSync(join(dir, 'whole'), { mode: 0o700 });
    writeFileSync(whole, '', { mode: 0o600 });
    const block = readFileSync(thousand, 'utf8');
    for (let copy = 0; copy < sessions / 1000; copy++) appendFileSync(whole, block.replace(/"session_id":"[0-9a-f]{8}/g, `"session_id":"${copy.toString(16).padStart(8, '0')}`));
    exported = join(dir, 'export');
    await exportBiasRecords({ inputs: [whole], output: exported, format: 'parquet' });
  },
  cases: [
    {
      name: embedded,
      iterations: 2,
      fn: async () => {
        const read = await readBiasRecords({ inputs: [exported], now, maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY });
        aggregateBiasAudit(read.columns, { now, resamples: 0 });
      },
    },
    { name: 'report over the same export, the map by DuckDB (duckdbSessionSummaries + aggregateBiasAudit)', iterations: 2, baseline: embedded, fn: () => duckdbReport([exported], 'parquet') },
    { name: 'report over the JSONL store it was exported from, the map by DuckDB', iterations: 2, baseline: embedded, fn: () => duckdbReport([whole], 'jsonl') },
  ],
  values: () => [
    { name: 'DuckDB map alone over the Parquet export (last run)', value: mapSeconds.parquet, unit: 's' },
    { name: 'DuckDB map alone over the JSONL store (last run)', value: mapSeconds.jsonl, unit: 's' },
  ],
  teardown: () => rmSync(dir, { recursive: true, force: true }),
});
