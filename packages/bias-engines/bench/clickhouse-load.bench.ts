import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineBenchSuite } from '@council/bench';
import type { ClickhouseTestServer } from '../src/__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../src/__fixtures__/clickhouse-test-server.js';
import { syntheticObservations } from '@council/bias-store/test';
import { createBiasStore, exportBiasRecords, recordsFromObservations } from '@council/bias-store';
import { createClickhouseBiasTable, exportBiasRecordsToClickhouse } from '../src/index.js';
import { biasParquet } from '../src/bias-parquet.js';

// Issue 18: loading a team's store into ClickHouse (`council store export --to clickhouse`) — records per second into
// a local ClickHouse server (Debian's 18.16.1, its own on 127.0.0.1), from the JSONL store and from its Parquet export.
const sessions = Number(process.env['COUNCIL_BENCH_CLICKHOUSE_SESSIONS'] ?? 100_000);
let dir = '';
let store = '';
let exported = '';
let server: ClickhouseTestServer | undefined;
let tables = 0;
const rates = { jsonl: 0, parquet: 0 };
let records = 0;

async function loadOnce(kind: 'jsonl' | 'parquet'): Promise<void> {
  const table = `bench_${kind}_${++tables}`;
  await createClickhouseBiasTable({ url: server!.url, table });
  const started = performance.now();
  const result = await exportBiasRecordsToClickhouse({
    inputs: [kind === 'jsonl' ? store : exported],
    url: server!.url,
    table,
  });
  rates[kind] = result.inserted / ((performance.now() - started) / 1000);
  records = result.inserted;
}

export const suite = defineBenchSuite({
  name: 'clickhouse-load',
  setup: async () => {
    dir = mkdtempSync(join(tmpdir(), 'bias-clickhouse-bench-'));
    // A 5-model council, 20 records a session: 1,000 sessions, copied with new session ids up to `sessions`.
    const thousand = join(dir, 'thousand', 'bias_metrics.jsonl');
    const small = createBiasStore({ path: thousand });
    const all = recordsFromObservations(syntheticObservations({ sessions: 1000 }), {
      consent: 1,
      hashSecret: null,
      query: 'How do I merge two sorted lists?',
    });
    for (let s = 0; s < 1000; s++) await small.append(all.slice(s * 20, s * 20 + 20));
    store = join(dir, 'whole', 'bias_metrics.jsonl');
    mkdirSync(join(dir, 'whole'), { mode: 0o700 });
    writeFileSync(store, '', { mode: 0o600 });
    const block = readFileSync(thousand, 'utf8');
    for (let copy = 0; copy < sessions / 1000; copy++)
      appendFileSync(
        store,
        block.replace(/"session_id":"[0-9a-f]{8}/g, `"session_id":"${copy.toString(16).padStart(8, '0')}`),
      );
    exported = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: exported, format: 'parquet' });
    server = await startClickhouseTestServer();
  },
  cases: [
    {
      name: `load a ${sessions.toLocaleString('en-US')}-session JSONL store (${(sessions * 20).toLocaleString('en-US')} records) into a new table`,
      iterations: 2,
      fn: async () => await loadOnce('jsonl'),
    },
    { name: 'load its Parquet export into a new table', iterations: 2, fn: async () => await loadOnce('parquet') },
  ],
  values: () => [
    { name: `records loaded a run`, value: records, unit: 'records' },
    { name: 'from JSONL (last run)', value: Math.round(rates.jsonl), unit: 'records/s' },
    { name: 'from Parquet (last run)', value: Math.round(rates.parquet), unit: 'records/s' },
  ],
  teardown: async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  },
});
