import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineBenchSuite } from '@council/bench';
import { syntheticObservations } from '../src/__fixtures__/synthetic-sessions.js';
import {
  appendHistory,
  createBiasStore,
  createContributionStore,
  prepareHistory,
  recordsFromObservations,
  saveSessionWhole,
} from '../src/index.js';
import type { BiasMetricRecord, ContributionRecord, HistoryEntry } from '../src/index.js';

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
  session: {
    sessionId: `bench-${i}`,
    timestamp: new Date(0).toISOString(),
    stage1: Array.from({ length: 5 }, () => 'x'.repeat(1600)),
    stage2: Array.from({ length: 5 }, () => 'y'.repeat(800)),
    leaderboard: [],
  },
});

const contributions = (sessionId: string): ContributionRecord[] =>
  ['a', 'b', 'c', 'd', 'e'].map((m) => ({
    schemaVersion: '1.0.0',
    recordId: `${sessionId}:model/${m}`,
    sessionId,
    conversationId: null,
    timestamp: '2026-11-20T10:00:00.000Z',
    member: `model/${m}`,
    model: `model/${m}`,
    personality: null,
    strategy: 'balanced',
    mode: 'consensus',
    weight: 0.2,
    voteWinner: m === 'a',
    configVersion: 'bench',
  }));

export const suite = defineBenchSuite({
  name: 'bias-store-durability',
  setup: () => {
    dir = mkdtempSync(join(tmpdir(), 'bias-store-durability-'));
    records = recordsFromObservations(syntheticObservations({ sessions: 200 }), {
      consent: 1,
      hashSecret: null,
      query,
    });
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
    {
      // What `council ask` pays to save a session: the journal (written, fsynced with its directory), 20 bias records,
      // 5 contribution records and a history line, each fsynced, and the journal removed (an outbox line, at consent ≥ 2,
      // adds one more fsynced append).
      name: 'save one session whole (journal + bias + contributions + history), fsync',
      iterations: 200,
      fn: () => {
        const i = n++;
        const home = join(dir, 'whole');
        return saveSessionWhole({
          journal: join(home, 'journal'),
          sessionId: `bench-${i}`,
          parts: [
            {
              what: '20 bias records',
              prepared: createBiasStore({ path: join(home, 'bias_metrics.jsonl') }).prepare(session()),
            },
            {
              what: 'its history entry',
              prepared: prepareHistory(join(home, 'history.jsonl'), [historyEntry(i)]).prepared,
            },
            {
              what: '5 contribution records',
              prepared: createContributionStore({ path: join(home, 'contributions.jsonl') }).prepare(
                contributions(`bench-${i}`),
              ),
            },
          ],
        });
      },
    },
  ],
});
