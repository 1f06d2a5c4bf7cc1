import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineBenchSuite } from '@council/bench';
import { syntheticObservations } from '../src/__fixtures__/synthetic-sessions.js';
import { appendHistory, createBiasStore, recordsFromObservations } from '../src/index.js';
import type { BiasMetricRecord, HistoryEntry } from '../src/index.js';

// Issue 27: what the durability promise costs. A session's appends are fsynced (the file, and its directory when the
// append created the file), so a session `ask` reports saved survives a power loss. These rows put a price on that,
// on the file system of the temporary directory (set TMPDIR to measure another disk): the same append with and without
// fsync, and a history line. fsync's cost is the disk's, not Council's: an SSD with a write cache answers in well under
// a millisecond, a network disk or a spinning one in several.
const query = 'How do I write a Python function that merges two sorted lists?';
let dir = '';
let records: BiasMetricRecord[] = [];
let n = 0;
const session = (): BiasMetricRecord[] => {
  const s = n++ % 200;
  return records.slice(s * 20, s * 20 + 20);
};
// A history line of about 12 KB: a 5-member session's answers, reviews and synthesis without the query.
const historyEntry = (i: number): HistoryEntry => ({
  schema_version: '1.0.0',
  council_version: 'bench',
  simulated: true,
  query_metadata: null,
  session: { sessionId: `bench-${i}`, timestamp: new Date(0).toISOString(), stage1: Array.from({ length: 5 }, () => 'x'.repeat(1600)), stage2: Array.from({ length: 5 }, () => 'y'.repeat(800)), leaderboard: [] },
});

export const suite = defineBenchSuite({
  name: 'bias-store-durability',
  setup: () => {
    dir = mkdtempSync(join(tmpdir(), 'bias-store-durability-'));
    records = recordsFromObservations(syntheticObservations({ sessions: 200 }), { consent: 1, hashSecret: null, query });
  },
  teardown: () => rmSync(dir, { recursive: true, force: true }),
  cases: [
    {
      name: 'append one session (20 bias records), no fsync',
      iterations: 200,
      fn: () => createBiasStore({ path: join(dir, 'plain', 'bias_metrics.jsonl') }).append(session()),
    },
    {
      name: 'append one session (20 bias records), fsync',
      iterations: 200,
      baseline: 'append one session (20 bias records), no fsync',
      fn: () => createBiasStore({ path: join(dir, 'fsync', 'bias_metrics.jsonl') }).append(session(), { fsync: true }),
    },
    {
      name: 'append one history line (≈ 12 KB), fsync',
      iterations: 200,
      fn: () => appendHistory(join(dir, 'history', 'history.jsonl'), [historyEntry(n++)], { fsync: true }),
    },
  ],
});
