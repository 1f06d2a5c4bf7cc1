import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeBiasSessions } from '@council/bias-audit';
import { defineBenchSuite } from '@council/bench';
import type { ClickhouseTestServer } from '../src/__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../src/__fixtures__/clickhouse-test-server.js';
import { syntheticObservations } from '../src/__fixtures__/synthetic-sessions.js';
import { clickhouseBiasRead, createBiasStore, createClickhouseBiasTable, exportBiasRecordsToClickhouse, readBiasRecords, recordsFromObservations } from '../src/index.js';

// Issue 18: the map step of the cross-session report run by ClickHouse (18.16.1, a server the bench starts) over a
// loaded table, against the JS map (readBiasRecords + summarizeBiasSessions) over the store it was loaded from.
const sessions = Number(process.env['COUNCIL_BENCH_CLICKHOUSE_SESSIONS'] ?? 100_000);
const now = new Date('2030-01-01T00:00:00Z');
const window = { now, maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY };
let dir = '';
let store = '';
let server: ClickhouseTestServer | undefined;
let loadSeconds = 0;
let jsText = '';
let identical = Number.NaN;

export const suite = defineBenchSuite({
  name: 'clickhouse-map',
  setup: async () => {
    dir = mkdtempSync(join(tmpdir(), 'bias-clickhouse-bench-'));
    // A 5-model council, 20 records a session: 1,000 sessions, copied with new session ids up to `sessions`.
    const thousand = join(dir, 'thousand', 'bias_metrics.jsonl');
    const records = recordsFromObservations(syntheticObservations({ sessions: 1000 }), { consent: 1, hashSecret: null, query: 'How do I merge two sorted lists?' });
    const small = createBiasStore({ path: thousand });
    for (let s = 0; s < 1000; s++) await small.append(records.slice(s * 20, s * 20 + 20));
    store = join(dir, 'whole', 'bias_metrics.jsonl');
    mkdirSync(join(dir, 'whole'), { mode: 0o700 });
    writeFileSync(store, '', { mode: 0o600 });
    const block = readFileSync(thousand, 'utf8');
    for (let copy = 0; copy < sessions / 1000; copy++) appendFileSync(store, block.replace(/"session_id":"[0-9a-f]{8}/g, `"session_id":"${copy.toString(16).padStart(8, '0')}`));
    server = await startClickhouseTestServer();
    await createClickhouseBiasTable({ url: server.url });
    const started = performance.now();
    await exportBiasRecordsToClickhouse({ inputs: [store], url: server.url });
    loadSeconds = (performance.now() - started) / 1000;
  },
  cases: [
    {
      name: `JS map over a ${sessions.toLocaleString('en-US')}-session JSONL store (readBiasRecords + summarizeBiasSessions)`,
      iterations: 2,
      fn: async () => {
        const read = await readBiasRecords({ inputs: [store], ...window });
        jsText = JSON.stringify(summarizeBiasSessions(read.columns));
      },
    },
    {
      name: 'the map by ClickHouse 18.16 over the loaded table (clickhouseBiasRead)',
      iterations: 2,
      baseline: `JS map over a ${sessions.toLocaleString('en-US')}-session JSONL store (readBiasRecords + summarizeBiasSessions)`,
      fn: async () => {
        const read = await clickhouseBiasRead({ url: server!.url, ...window });
        identical = JSON.stringify(read.summaries) === jsText ? 1 : 0;
      },
    },
  ],
  values: () => [
    { name: `load of ${(sessions * 20).toLocaleString('en-US')} records (exportBiasRecordsToClickhouse)`, value: loadSeconds, unit: 's' },
    { name: 'ClickHouse summaries identical to the JS map (1 = the same JSON)', value: identical, unit: '' },
  ],
  teardown: async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  },
});
