import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename, join } from 'node:path';
import type { BiasObservation } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { syntheticObservations } from './__fixtures__/synthetic-sessions.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasMetricRecordSchema } from './bias-metric-record.js';
import { noRank } from './bias-record-columns.js';
import type { BiasRecordColumns } from './bias-record-columns.js';
import { BiasStoreError } from './bias-store-error.js';
import { columnsToObservations } from './columns-to-observations.js';
import { createBiasStore } from './create-bias-store.js';
import type { ReadBiasRecordsResult } from './read-bias-records.js';
import { readBiasRecords } from './read-bias-records.js';
import { recordsFromObservations } from './records-from-observations.js';

const tempDir = useTempDirs();

const at = (iso: string): number => Date.parse(iso);

/** One observation: a session's reviewer → `c/x` at a time; the rest fixed unless given. */
function obs(
  [sessionId, reviewer]: [session: string, reviewer: string],
  timestamp: string,
  extra: Partial<BiasObservation> = {},
): BiasObservation {
  return {
    sessionId,
    timestamp,
    reviewer,
    candidate: 'c/x',
    position: 0,
    responseLengthChars: 100,
    score: 5,
    rankPosition: 0,
    configVersion: '1.0.0',
    queryCategory: null,
    ...extra,
  };
}

function records(observations: readonly BiasObservation[]): BiasMetricRecord[] {
  return recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null });
}

async function writeStore(path: string, items: readonly BiasMetricRecord[]): Promise<string> {
  await createBiasStore({ path }).append(items);
  return path;
}

/** What the reader should give back for a record: the planted values, the time as ISO in UTC. */
function expectedObservation(r: BiasMetricRecord): BiasObservation {
  return {
    sessionId: r.sessionId,
    timestamp: new Date(r.timestamp).toISOString(),
    reviewer: r.reviewerId,
    candidate: r.modelId,
    position: r.position,
    responseLengthChars: r.responseLengthChars,
    score: r.scoreValue,
    rankPosition: r.rankPosition,
    configVersion: r.councilConfigVersion,
    queryCategory: r.queryMetadata?.category ?? null,
  };
}

/** Every column and id table as plain arrays, so two reads compare field by field. */
function plainColumns(c: BiasRecordColumns): Record<string, unknown> {
  return {
    length: c.length,
    session: Array.from(c.session),
    reviewer: Array.from(c.reviewer),
    candidate: Array.from(c.candidate),
    position: Array.from(c.position),
    responseLengthChars: Array.from(c.responseLengthChars),
    score: Array.from(c.score),
    rankPosition: Array.from(c.rankPosition),
    time: Array.from(c.time),
    configVersion: Array.from(c.configVersion),
    queryCategory: Array.from(c.queryCategory),
    positionIsDisplayOrder: Array.from(c.positionIsDisplayOrder),
    sessionIds: [...c.sessionIds],
    sessionTime: Array.from(c.sessionTime),
    sessionStart: Array.from(c.sessionStart),
    models: [...c.models],
    configVersions: [...c.configVersions],
    queryCategories: [...c.queryCategories],
  };
}

/** The counts of a read, without its columns and file paths. */
function counts(r: ReadBiasRecordsResult): Record<string, unknown> {
  const { columns: _columns, files, firstBadLines, ...rest } = r;
  return {
    ...rest,
    files: files.map((f) => f.lines),
    firstBadLines: firstBadLines.map(({ line, reason }) => ({ line, reason })),
  };
}

const noExclusions = { model: 0, configVersion: 0, beforeWindow: 0, future: 0, beyondSessions: 0, unsaved: 0 };
const noSkips = {
  invalid_json: 0,
  invalid_record: 0,
  unsupported_version: 0,
  invalid_utf8: 0,
  line_too_long: 0,
  torn_line: 0,
  corrupt_segment: 0,
};

// ---------------------------------------------------------------------------------------------------
// Ways of writing the same JSON object, as other tools write it.

interface JsonStyle {
  open: string;
  close: string;
  itemSeparator: string;
  keySeparator: string;
  sortKeys?: boolean;
  string?: (s: string) => string;
  number?: (key: string, n: number) => string;
}

function writeJson(value: unknown, style: JsonStyle, key = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return style.number?.(key, value) ?? JSON.stringify(value);
  if (typeof value === 'string') return style.string?.(value) ?? JSON.stringify(value);
  if (typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (style.sortKeys === true) entries.sort(([a], [b]) => (a < b ? -1 : 1));
    const body = entries.map(
      ([k, v]) => `${style.string?.(k) ?? JSON.stringify(k)}${style.keySeparator}${writeJson(v, style, k)}`,
    );
    return `${style.open}${body.join(style.itemSeparator)}${style.close}`;
  }
  throw new Error(`unexpected ${typeof value}`);
}

const compact: JsonStyle = { open: '{', close: '}', itemSeparator: ',', keySeparator: ':' };
// Python's json.dumps defaults: ", " and ": ", floats as 7.0, and ensure_ascii (every non-ASCII UTF-16 unit as \uXXXX).
const pythonDefault: JsonStyle = {
  ...compact,
  itemSeparator: ', ',
  keySeparator: ': ',
  string: (s) =>
    JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  number: (key, n) => (key === 'score_value' && Number.isInteger(n) ? `${n}.0` : String(n)),
};
const pretty: JsonStyle = { open: '{ ', close: ' }', itemSeparator: ', ', keySeparator: ': ' };
// jq -S -c: keys sorted at every level, compact.
const sortedKeys: JsonStyle = { ...compact, sortKeys: true };
// Integers as 2.0, 1e0 (JSON.parse reads them as the integers), and schema_version as the integer 1.
const numbersAsFloats: JsonStyle = {
  ...compact,
  number: (key, n) => {
    if (key === 'position') return `${n}.0`;
    if (key === 'response_length_chars') return `${n}e0`;
    if (key === 'rank_position') return `${n}.00`;
    if (key === 'consent_level') return `${n}E0`;
    if (key === 'score_value' && Number.isInteger(n)) return `${n}.0`;
    return String(n);
  },
};

const disk = (r: BiasMetricRecord): Record<string, unknown> => biasMetricRecordSchema.encode(r);

function writeLines(path: string, lines: readonly string[], eol = '\n'): string {
  writeFileSync(path, lines.map((l) => l + eol).join(''));
  return path;
}

describe('readBiasRecords: formatting never changes what is read', () => {
  // Six synthetic sessions (query metadata included), one at consent 4 with a query hash, and one of
  // non-ASCII ids with an unscored, unranked review.
  const planted: BiasMetricRecord[] = [
    ...recordsFromObservations(syntheticObservations({ sessions: 6, seed: 7 }), {
      consent: 1,
      hashSecret: null,
      query: 'How do I reverse a linked list in Rust?',
    }),
    ...recordsFromObservations(
      [
        obs(['séance-ü', 'local/modèle-é'], '2026-01-02T00:00:00+01:00', {
          candidate: 'openai/gpt-5.1',
          score: null,
          rankPosition: null,
          position: 1,
          responseLengthChars: 12_345,
        }),
        obs(['séance-ü', 'openai/gpt-5.1'], '2026-01-02T00:00:00+01:00', {
          candidate: 'local/modèle-é',
          score: 6.5,
          rankPosition: 0,
        }),
      ],
      { consent: 4, hashSecret: 'test-secret', query: 'Prove that √2 is irrational.' },
    ),
  ];
  const now = new Date('2026-02-01T00:00:00Z');

  it('reads compact, Python-style, pretty CRLF, key-sorted, escaped and float-integer lines to identical columns and counts', async () => {
    const dir = tempDir();
    const lines = (
      style: JsonStyle,
      patch: (o: Record<string, unknown>) => Record<string, unknown> = (o) => o,
    ): string[] => planted.map((r) => writeJson(patch(disk(r)), style));
    const paths = {
      store: await writeStore(join(dir, 'store.jsonl'), planted),
      python: writeLines(join(dir, 'python.jsonl'), lines(pythonDefault)),
      pretty: writeLines(join(dir, 'pretty.jsonl'), lines(pretty), '\r\n'),
      sorted: writeLines(join(dir, 'sorted.jsonl'), lines(sortedKeys)),
      // Every '/' as '\/' and every 'a' as \u0061 (only strings hold either): all of these take JSON.parse.
      escaped: writeLines(
        join(dir, 'escaped.jsonl'),
        lines(compact).map((l) => l.replaceAll('/', '\\/').replaceAll('a', '\\u0061')),
      ),
      floats: writeLines(
        join(dir, 'floats.jsonl'),
        lines(numbersAsFloats, (o) => ({ ...o, schema_version: 1 })),
      ),
    };
    // The lines really are written as described.
    const first = planted[0]!;
    expect(lines(pythonDefault)[0]).toMatch(/^\{"schema_version": "1\.1\.0", "session_id": "[^"]+", "timestamp": /);
    expect(lines(pretty)[0]).toMatch(
      /^\{ "schema_version": "1\.1\.0", .*"query_metadata": \{ "category": .* \}, .* \}$/,
    );
    expect(lines(sortedKeys)[0]).toMatch(/^\{"consent_level":1,"council_config_version":"0\.4\.0","model_id":/);
    expect(lines(compact).map((l) => l.replaceAll('/', '\\/'))[0]).toContain(
      `"reviewer_id":"${first.reviewerId.replace('/', '\\/')}"`,
    );
    expect(lines(numbersAsFloats, (o) => ({ ...o, schema_version: 1 }))[0]).toMatch(
      /^\{"schema_version":1,.*"position":\d+\.0,"response_length_chars":\d+e0,/,
    );
    expect(lines(pythonDefault).at(-1)).toContain(
      '"reviewer_id": "openai/gpt-5.1", "model_id": "local/mod\\u00e8le-\\u00e9"',
    );

    const results = await Promise.all(
      Object.values(paths).map((path) => readBiasRecords({ inputs: [path], window: { now } })),
    );
    const [reference, ...others] = results;
    // Read back exactly as planted: 8 sessions (6 + 1), oldest first.
    expect(columnsToObservations(reference!.columns)).toEqual(planted.map(expectedObservation));
    expect(reference!.columns.sessionIds).toEqual([...new Set(planted.map((r) => r.sessionId))]);
    expect(counts(reference!)).toEqual({
      files: [planted.length],
      lines: planted.length,
      records: planted.length,
      sessions: 7, // the 6 synthetic sessions and the non-ASCII one
      excluded: noExclusions,
      repeated: { duplicates: 0, conflicts: 0, conflictSessions: [] },
      foreignMajors: [],
      timestampsWithoutZone: 0,
      positionNotDisplayOrder: 0,
      simulatedRecords: 0,
      warnings: [],
      skipped: 0,
      reasons: noSkips,
      firstBadLines: [],
    });
    for (const [i, other] of others.entries()) {
      expect(plainColumns(other.columns), Object.keys(paths)[i + 1]).toEqual(plainColumns(reference!.columns));
      expect(counts(other), Object.keys(paths)[i + 1]).toEqual(counts(reference!));
    }
  });

  it('reads one file whose lines mix every formatting the same as the compact store', async () => {
    const dir = tempDir();
    const styles = [compact, pythonDefault, pretty, sortedKeys, numbersAsFloats];
    const mixed = planted
      .map((r, i) => writeJson(disk(r), styles[i % styles.length]!) + (i % 3 === 0 ? '\r\n' : '\n'))
      .join('');
    writeFileSync(join(dir, 'mixed.jsonl'), mixed);
    const store = await writeStore(join(dir, 'store.jsonl'), planted);
    const [a, b] = await Promise.all([
      readBiasRecords({ inputs: [store], window: { now } }),
      readBiasRecords({ inputs: [join(dir, 'mixed.jsonl')], window: { now } }),
    ]);
    expect(plainColumns(b.columns)).toEqual(plainColumns(a.columns));
    expect(counts(b)).toEqual(counts(a));
  });

  it('ignores a byte-order mark before the first line (as some Windows editors write)', async () => {
    const dir = tempDir();
    const store = await writeStore(join(dir, 'store.jsonl'), planted);
    writeFileSync(
      join(dir, 'bom.jsonl'),
      `\uFEFF${planted.map((r) => writeJson(disk(r), pythonDefault)).join('\n')}\n`,
    );
    const [a, b] = await Promise.all([
      readBiasRecords({ inputs: [store], window: { now } }),
      readBiasRecords({ inputs: [join(dir, 'bom.jsonl')], window: { now } }),
    ]);
    expect(b.skipped).toBe(0);
    expect(plainColumns(b.columns)).toEqual(plainColumns(a.columns));
  });
});

describe('readBiasRecords: the window', () => {
  // File order differs from time order. The window below is 7 days before 2026-03-10: from 2026-03-03T00:00Z.
  const planted = records([
    obs(['sC', 'r/1'], '2026-03-08T00:00:00Z'),
    obs(['straddle', 'r/1'], '2026-03-05T12:00:00Z'),
    obs(['straddle', 'r/2'], '2026-03-02T23:00:00Z'), // before the day cut-off
    obs(['sA', 'r/1'], '2026-03-04T00:00:00Z', { configVersion: null }),
    obs(['sA', 'r/2'], '2026-03-04T00:00:00Z', { configVersion: null }),
    obs(['old', 'r/1'], '2026-02-20T00:00:00Z'),
    obs(['old', 'r/2'], '2026-02-20T00:00:00Z'),
    obs(['sFuture', 'r/1'], '2026-03-11T00:00:00Z', { candidate: 'r/2' }),
    obs(['sMixed', 'r/1'], '2026-03-09T00:00:00Z'),
    obs(['sMixed', 'r/2'], '2026-03-12T00:00:00Z'), // after now
    obs(['sB', 'r/1'], '2026-03-06T00:00:00Z'),
    obs(['sB', 'r/2'], '2026-03-06T06:00:00Z', { configVersion: '0.9.0' }),
    obs(['sC', 'r/2'], '2026-03-07T00:00:00Z'), // sC again, earlier than its first record
    obs(['straddle', 'r/3'], '2026-03-06T00:00:00Z'),
  ]);
  const now = new Date('2026-03-10T00:00:00Z');
  const pick = (...which: [string, string][]): BiasObservation[] =>
    which.map(([session, reviewer]) =>
      expectedObservation(planted.find((r) => r.sessionId === session && r.reviewerId === reviewer)!),
    );

  async function read(options: Omit<Parameters<typeof readBiasRecords>[0], 'inputs'>): Promise<ReadBiasRecordsResult> {
    const path = await writeStore(join(tempDir(), 'bias_metrics.jsonl'), planted);
    return readBiasRecords({ inputs: [path], ...options });
  }

  it("keeps the last window.sessions sessions of the last window.days days, by each session's earliest record in the window", async () => {
    const r = await read({ window: { now, days: 7, sessions: 4 } });
    // In the window: sA from 03-04, straddle from 03-05T12 (its 03-02 record is out), sB 03-06, sC 03-07 (its later line), sMixed 03-09.
    expect(r.columns.sessionIds).toEqual(['straddle', 'sB', 'sC', 'sMixed']);
    expect(Array.from(r.columns.sessionStart)).toEqual([0, 2, 4, 6, 7]);
    expect(Array.from(r.columns.sessionTime)).toEqual([
      at('2026-03-05T12:00:00Z'),
      at('2026-03-06T00:00:00Z'),
      at('2026-03-07T00:00:00Z'),
      at('2026-03-09T00:00:00Z'),
    ]);
    expect(columnsToObservations(r.columns)).toEqual(
      pick(
        ['straddle', 'r/1'],
        ['straddle', 'r/3'],
        ['sB', 'r/1'],
        ['sB', 'r/2'],
        ['sC', 'r/1'],
        ['sC', 'r/2'],
        ['sMixed', 'r/1'],
      ),
    );
    // 14 records: 7 kept, sA's 2 beyond the 4 sessions, 2 after now, 3 before the 7 days.
    expect(r.records).toBe(14);
    expect(r.excluded).toEqual({ ...noExclusions, beyondSessions: 2, future: 2, beforeWindow: 3 });
  });

  it('ranks a straddling session by its earliest record once no day window cuts it', async () => {
    const r = await read({ window: { now, sessions: 4 } });
    // Now straddle starts 03-02T23 and old 02-20: both older than sA.
    expect(r.columns.sessionIds).toEqual(['sA', 'sB', 'sC', 'sMixed']);
    expect(Array.from(r.columns.sessionStart)).toEqual([0, 2, 4, 6, 7]);
    expect(r.excluded).toEqual({ ...noExclusions, beyondSessions: 5, future: 2 });
    const all = await read({ window: { now } });
    expect(all.columns.sessionIds).toEqual(['old', 'straddle', 'sA', 'sB', 'sC', 'sMixed']);
    expect(Array.from(all.columns.sessionStart)).toEqual([0, 2, 5, 7, 9, 11, 12]);
    expect(all.excluded).toEqual({ ...noExclusions, future: 2 });
  });

  it('leaves out records after now, counting them as future', async () => {
    const r = await read({ window: { now: new Date('2026-03-08T12:00:00Z') } });
    // sMixed (03-09, 03-12) and sFuture (03-11) are after now; sC's 03-08T00 record is not.
    expect(r.excluded).toEqual({ ...noExclusions, future: 3 });
    expect(r.columns.sessionIds).toEqual(['old', 'straddle', 'sA', 'sB', 'sC']);
    expect(r.columns.length).toBe(11);
    // A record exactly at now is in.
    const edge = await read({ window: { now: new Date('2026-03-12T00:00:00Z') } });
    expect(edge.excluded).toEqual(noExclusions);
    expect(edge.columns.length).toBe(14);
  });

  it('filters by model (reviewer or reviewed) and by config version, each record counted under the first filter that leaves it out', async () => {
    // r/2 reviews in straddle, sA, old, sMixed, sB and sC, and is reviewed in sFuture: 7 records; 7 others.
    const byModel = await read({ window: { now, model: 'r/2' } });
    expect(byModel.excluded).toEqual({ ...noExclusions, model: 7, future: 2 });
    expect(byModel.columns.sessionIds).toEqual(['old', 'straddle', 'sA', 'sB', 'sC']);
    // sB's one record left starts it at 06:00.
    expect(Array.from(byModel.columns.sessionTime)).toEqual(
      [
        '2026-02-20T00:00:00Z',
        '2026-03-02T23:00:00Z',
        '2026-03-04T00:00:00Z',
        '2026-03-06T06:00:00Z',
        '2026-03-07T00:00:00Z',
      ].map(at),
    );
    expect(byModel.columns.models).toContain('r/2');

    const byConfig = await read({ window: { now, configVersion: '1.0.0' } });
    // sA's two records have no config version, sB's r/2 record is 0.9.0.
    expect(byConfig.excluded).toEqual({ ...noExclusions, configVersion: 3, future: 2 });
    expect(byConfig.columns.length).toBe(9);
    expect(byConfig.columns.sessionIds).toEqual(['old', 'straddle', 'sB', 'sC', 'sMixed']);

    const both = await read({ window: { now, model: 'r/2', configVersion: '1.0.0', sessions: 2 } });
    // model 7; of r/2's 7: sA and sB by config, sMixed and sFuture after now, old/straddle/sC kept, then old beyond 2 sessions.
    expect(both.excluded).toEqual({
      model: 7,
      configVersion: 2,
      future: 2,
      beforeWindow: 0,
      beyondSessions: 1,
      unsaved: 0,
    });
    expect(both.columns.sessionIds).toEqual(['straddle', 'sC']);
    expect(both.records).toBe(14);
  });

  it('breaks ties between sessions that start together by session id, ascending', async () => {
    const path = await writeStore(
      join(tempDir(), 'ties.jsonl'),
      records([
        obs(['tie-b', 'r/1'], '2026-03-01T00:00:00Z'),
        obs(['tie-a', 'r/1'], '2026-03-01T00:00:00Z'),
        obs(['tie-c', 'r/1'], '2026-03-01T00:00:00Z'),
        obs(['tie-a', 'r/2'], '2026-03-01T00:00:00Z'),
      ]),
    );
    const all = await readBiasRecords({ inputs: [path], window: { now } });
    expect(all.columns.sessionIds).toEqual(['tie-a', 'tie-b', 'tie-c']);
    expect(Array.from(all.columns.sessionStart)).toEqual([0, 2, 3, 4]);
    const two = await readBiasRecords({ inputs: [path], window: { now, sessions: 2 } });
    expect(two.columns.sessionIds).toEqual(['tie-b', 'tie-c']);
    expect(two.excluded.beyondSessions).toBe(2);
  });

  it('rejects a window it cannot honour', async () => {
    const path = await writeStore(join(tempDir(), 'x.jsonl'), planted);
    for (const bad of [{ sessions: 0 }, { sessions: 1.5 }, { days: -1 }, { now: new Date(Number.NaN) }]) {
      await expect(readBiasRecords({ inputs: [path], window: bad })).rejects.toSatisfy(
        (e: unknown) => BiasStoreError.isInstance(e) && e.code === 'INVALID_OPTION',
      );
    }
  });

  it("refuses the window's earlier option names with the new name, rather than reading every record", async () => {
    const path = await writeStore(join(tempDir(), 'x.jsonl'), planted);
    const earlier = [
      [{ maxSessions: 2 }, 'readBiasRecords: maxSessions is now window.sessions.'],
      [{ maxDays: 30 }, 'readBiasRecords: maxDays is now window.days.'],
      [{ now: new Date() }, 'readBiasRecords: now is now window.now.'],
      [{ model: 'r/1' }, 'readBiasRecords: model is now window.model.'],
    ] as const;
    for (const [options, message] of earlier) {
      await expect(readBiasRecords({ inputs: [path], ...options })).rejects.toSatisfy(
        (e: unknown) => BiasStoreError.isInstance(e) && e.code === 'INVALID_OPTION' && e.message === message,
      );
    }
  });

  it("re-reads a session pruned early that turns out to be among the window's last sessions (5,000 sessions, sessions 3)", async () => {
    // x-1..3 start latest, so after 4,096 held sessions the reader keeps them and drops p-1..3. Later
    // lines give x-1..3 records from 2025 (now the oldest sessions), and p-1 a record earlier than its
    // first: p-1..3 are the last 3 after all, and must come back with every record.
    const fillers = 4994;
    const early: BiasObservation[] = [
      ...[1, 2, 3].map((i) => obs([`x-${i}`, 'r/1'], `2026-06-01T00:0${i}:00Z`)),
      obs(['p-1', 'r/1'], '2026-05-23T00:00:00Z', { score: 1 }),
      obs(['p-1', 'r/2'], '2026-05-23T00:00:00Z', { score: 2 }),
      obs(['p-2', 'r/1'], '2026-05-21T00:00:00Z', { score: 3 }),
      obs(['p-2', 'r/2'], '2026-05-21T00:00:00Z', { score: 4 }),
      obs(['p-3', 'r/1'], '2026-05-22T00:00:00Z', { score: 5 }),
      obs(['p-3', 'r/2'], '2026-05-22T00:00:00Z', { score: 6 }),
      ...Array.from({ length: fillers }, (_, i) =>
        obs(
          [`f-${String(i).padStart(4, '0')}`, 'r/1'],
          new Date(at('2026-01-01T00:00:00Z') + i * 60_000).toISOString(),
        ),
      ),
    ];
    const late = [
      ...[1, 2, 3].map((i) => obs([`x-${i}`, 'r/2'], '2025-01-01T00:00:00Z')),
      obs(['p-1', 'r/3'], '2026-05-19T00:00:00Z', { score: 7 }),
    ];
    const path = await writeStore(join(tempDir(), 'many.jsonl'), records(early));
    // Two bad lines (5,004 and 5,005) between: the second read must not count them again.
    appendFileSync(path, '{"schema_version":"2.0.0"}\nnot json\n');
    await writeStore(path, records(late));
    const r = await readBiasRecords({ inputs: [path], window: { now: new Date('2026-07-01T00:00:00Z'), sessions: 3 } });
    expect(r.columns.sessionIds).toEqual(['p-1', 'p-2', 'p-3']);
    expect(Array.from(r.columns.sessionTime)).toEqual([
      at('2026-05-19T00:00:00Z'),
      at('2026-05-21T00:00:00Z'),
      at('2026-05-22T00:00:00Z'),
    ]);
    expect(Array.from(r.columns.sessionStart)).toEqual([0, 3, 5, 7]);
    expect(columnsToObservations(r.columns).map((o) => [o.sessionId, o.reviewer, o.score, o.timestamp])).toEqual([
      ['p-1', 'r/1', 1, '2026-05-23T00:00:00.000Z'],
      ['p-1', 'r/2', 2, '2026-05-23T00:00:00.000Z'],
      ['p-1', 'r/3', 7, '2026-05-19T00:00:00.000Z'],
      ['p-2', 'r/1', 3, '2026-05-21T00:00:00.000Z'],
      ['p-2', 'r/2', 4, '2026-05-21T00:00:00.000Z'],
      ['p-3', 'r/1', 5, '2026-05-22T00:00:00.000Z'],
      ['p-3', 'r/2', 6, '2026-05-22T00:00:00.000Z'],
    ]);
    // 4,994 fillers + 6 of x + 7 of p; everything but p's 7 is beyond the 3 sessions, counted once.
    expect(r.records).toBe(5007);
    expect(r.lines).toBe(5009);
    expect(r.skipped).toBe(2);
    expect(r.firstBadLines.map(({ line, reason }) => [line, reason])).toEqual([
      [5004, 'unsupported_version'],
      [5005, 'invalid_json'],
    ]);
    expect(r.foreignMajors).toEqual([2]);
    expect(r.excluded).toEqual({ ...noExclusions, beyondSessions: 5000 });
    expect(r.repeated).toEqual({ duplicates: 0, conflicts: 0, conflictSessions: [] });
  });
});

describe('readBiasRecords: bad lines', () => {
  const good = (session: string, time: string): string =>
    JSON.stringify(disk(records([obs([session, 'r/1'], time)])[0]!));

  function plant(dir: string): { path: string; maxLineBytes: number } {
    const valid = good('s1', '2026-03-01T00:00:00Z');
    const missingScore = JSON.parse(valid) as Record<string, unknown>;
    delete missingScore.score_value;
    const lines = [
      Buffer.from(`${valid}\n`), // 1
      Buffer.from('{"schema_version":"1.1.0","session_id":"s1",\n'), // 2: invalid JSON
      Buffer.from('[1,2,3]\n'), // 3: not an object
      Buffer.from(`${JSON.stringify(missingScore)}\n`), // 4: no score_value
      Buffer.from(`${valid.replace('"1.1.0"', '"2.0.0"')}\n`), // 5: major 2
      Buffer.concat([
        Buffer.from(`${valid.slice(0, valid.indexOf('"s1"'))}"s1-`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`${valid.slice(valid.indexOf('"s1"') + 3)}\n`),
      ]), // 6: not UTF-8
      Buffer.from(`${valid.replace('"r/1"', `"r/${'x'.repeat(600)}"`)}\n`), // 7: over 512 bytes
      Buffer.from('\n'), // 8: blank, not a line read
      Buffer.from(`${good('s2', '2026-03-02T00:00:00Z')}\n`), // 9
      Buffer.from(valid.slice(0, 40)), // 10: torn (no newline)
    ];
    const path = join(dir, 'bias_metrics.jsonl');
    writeFileSync(path, Buffer.concat(lines));
    return { path, maxLineBytes: 512 };
  }

  it('counts each bad line with its file and line number, whatever the window', async () => {
    const { path, maxLineBytes } = plant(tempDir());
    const now = new Date('2026-04-01T00:00:00Z');
    const expectedBad = [
      { file: path, line: 2, reason: 'invalid_json' },
      { file: path, line: 3, reason: 'invalid_record' },
      { file: path, line: 4, reason: 'invalid_record' },
      { file: path, line: 5, reason: 'unsupported_version' },
      { file: path, line: 6, reason: 'invalid_utf8' },
      { file: path, line: 7, reason: 'line_too_long' },
      { file: path, line: 10, reason: 'torn_line' },
    ];
    // No window; the last session only (s1's bad lines belong to a session left out); a model no record has; a window before every record.
    for (const window of [
      {},
      { sessions: 1 },
      { model: 'nobody' },
      { days: 1 },
      { now: new Date('2020-01-01T00:00:00Z') },
    ]) {
      const r = await readBiasRecords({ inputs: [path], maxLineBytes, window: { now, ...window } });
      expect(
        r.firstBadLines.map(({ file, line, reason }) => ({ file, line, reason })),
        JSON.stringify(window),
      ).toEqual(expectedBad);
      expect(r.firstBadLines[3]!.detail).toContain('major version 2');
      expect(r.firstBadLines[2]!.detail).toContain('score_value');
      expect(r.skipped).toBe(7);
      expect(r.reasons).toEqual({
        ...noSkips,
        invalid_json: 1,
        invalid_record: 2,
        unsupported_version: 1,
        invalid_utf8: 1,
        line_too_long: 1,
        torn_line: 1,
      });
      expect(r.foreignMajors).toEqual([2]);
      expect(r.lines).toBe(9);
      expect(r.records).toBe(2);
      expect(r.files).toEqual([{ path, lines: 10 }]);
    }
    const last = await readBiasRecords({ inputs: [path], maxLineBytes, window: { now, sessions: 1 } });
    expect(last.columns.sessionIds).toEqual(['s2']);
    expect(last.excluded.beyondSessions).toBe(1);
  });
});

describe('readBiasRecords: several inputs', () => {
  const s1 = records([
    obs(['s1', 'r/1'], '2026-03-01T00:00:00Z'),
    obs(['s1', 'r/2'], '2026-03-01T00:00:00Z'),
    obs(['s1', 'r/3'], '2026-03-01T00:00:00Z'),
  ]);
  const s2 = records([
    obs(['s2', 'r/1'], '2026-03-02T00:00:00Z', { score: 4 }),
    obs(['s2', 'r/2'], '2026-03-02T00:00:00Z', { score: 5 }),
    obs(['s2', 'r/3'], '2026-03-02T00:00:00Z', { score: 6 }),
  ]);
  const s3 = records([obs(['s3', 'r/1'], '2026-03-03T00:00:00Z'), obs(['s3', 'r/2'], '2026-03-03T00:00:00Z')]);
  const now = new Date('2026-04-01T00:00:00Z');

  it("reads a gzipped file that is no store's segment on its own, and every store of a team directory", async () => {
    const dir = tempDir();
    const plain = await writeStore(join(dir, 'alice.jsonl'), [...s1, ...s2]);
    writeFileSync(join(dir, 'bob.jsonl.gz'), gzipSync(readFileSync(plain)));
    // s1 + s2 = 6 records, the same 6 gzipped: 6 read from the .gz alone.
    const gz = await readBiasRecords({ inputs: [join(dir, 'bob.jsonl.gz')], window: { now } });
    expect(gz.records).toBe(6);
    expect(gz.columns.sessionIds).toEqual(['s1', 's2']);
    // A directory holding bias_metrics.jsonl and a teammate's store reads both (and skips the history).
    const team = join(dir, 'team');
    await writeStore(join(team, 'bias_metrics.jsonl'), s1);
    await writeStore(join(team, 'carol.jsonl'), s3);
    writeFileSync(join(team, 'history.jsonl'), '{"not":"a bias record"}\n');
    const both = await readBiasRecords({ inputs: [team], window: { now } });
    expect(both.records).toBe(5);
    expect(both.skipped).toBe(0);
    expect(both.columns.sessionIds).toEqual(['s1', 's3']);
  });

  it('calls a last line cut inside a character torn, and judges schema_version 0 by the schema, not as a newer major', async () => {
    const dir = tempDir();
    const path = join(dir, 'cut.jsonl');
    const line = JSON.stringify(biasMetricRecordSchema.encode(s3[0]!));
    const zero = line.replace('"schema_version":"1.1.0"', '"schema_version":0');
    // "é" is two bytes (C3 A9): the file ends after the first of them, as a crash mid-write leaves it.
    writeFileSync(path, Buffer.concat([Buffer.from(`${line}\n${zero}\n{"reviewer_id":"`), Buffer.from([0xc3])]));
    const r = await readBiasRecords({ inputs: [path], window: { now } });
    expect(r.records).toBe(1);
    expect(r.reasons).toMatchObject({ torn_line: 1, invalid_record: 1, unsupported_version: 0, invalid_utf8: 0 });
    expect(r.foreignMajors).toEqual([]);
    await expect(readBiasRecords({ inputs: [path], maxLineBytes: Number.NaN, window: { now } })).rejects.toThrow(
      /maxLineBytes must be a positive whole number/,
    );
  });

  it('merges the sessions of two stores, counting a record both hold once', async () => {
    const dir = tempDir();
    const a = await writeStore(join(dir, 'a', 'bias_metrics.jsonl'), [...s1, ...s2]);
    // The second store holds s2 again (its lines in another order) and s3.
    const b = await writeStore(join(dir, 'b', 'bias_metrics.jsonl'), [s3[0]!, ...s2.slice().reverse(), s3[1]!]);
    const r = await readBiasRecords({ inputs: [a, b], window: { now } });
    expect(r.records).toBe(11);
    expect(r.repeated).toEqual({ duplicates: 3, conflicts: 0, conflictSessions: [] });
    expect(r.columns.sessionIds).toEqual(['s1', 's2', 's3']);
    expect(Array.from(r.columns.sessionStart)).toEqual([0, 3, 6, 8]);
    expect(r.warnings).toEqual([]);
    expect(r.files.map((f) => f.path)).toEqual([a, b]);
  });

  it("keeps the first input's record when a second input disagrees, and names the session", async () => {
    const dir = tempDir();
    const a = await writeStore(join(dir, 'a.jsonl'), [...s1, ...s2]);
    const changed = s2.map((r) => (r.reviewerId === 'r/2' ? { ...r, scoreValue: 9 } : r));
    const b = await writeStore(join(dir, 'b.jsonl'), [...changed, ...s3]);
    const r = await readBiasRecords({ inputs: [a, b], window: { now } });
    expect(r.repeated).toEqual({ duplicates: 2, conflicts: 1, conflictSessions: ['s2'] });
    expect(r.warnings).toEqual([expect.stringContaining('(sessions s2)')]);
    const kept = columnsToObservations(r.columns).filter((o) => o.sessionId === 's2');
    expect(kept.map((o) => [o.reviewer, o.score])).toEqual([
      ['r/1', 4],
      ['r/2', 5],
      ['r/3', 6],
    ]);
    // In the other order, the other value wins.
    const swapped = await readBiasRecords({ inputs: [b, a], window: { now } });
    expect(
      columnsToObservations(swapped.columns).find((o) => o.sessionId === 's2' && o.reviewer === 'r/2')!.score,
    ).toBe(9);
  });

  it('reads only the bias store of a Council home directory', async () => {
    const home = tempDir();
    await writeStore(join(home, 'bias_metrics.jsonl'), [...s1, ...s2]);
    writeFileSync(join(home, 'history.jsonl'), '{"kind":"session","id":"h-1","query":"not a bias record"}\n');
    writeFileSync(join(home, 'outbox.jsonl'), '{"kind":"upload"}\n');
    const r = await readBiasRecords({ inputs: [home], window: { now } });
    expect(r.files.map((f) => basename(f.path))).toEqual(['bias_metrics.jsonl']);
    expect(r.records).toBe(6);
    expect(r.skipped).toBe(0);
    expect(r.columns.sessionIds).toEqual(['s1', 's2']);
  });

  it('reads the files a glob over file names matches, relative to cwd, and says so when it matches none', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'team'));
    await writeStore(join(root, 'team', 'alice.jsonl'), s1);
    await writeStore(join(root, 'team', 'bob.jsonl'), s3);
    writeFileSync(join(root, 'team', 'notes.txt'), 'not a store\n');
    const r = await readBiasRecords({ inputs: ['team/*.jsonl'], cwd: root, window: { now } });
    expect(r.files.map((f) => basename(f.path))).toEqual(['alice.jsonl', 'bob.jsonl']);
    expect(r.columns.sessionIds).toEqual(['s1', 's3']);
    expect(r.records).toBe(5);
    await expect(readBiasRecords({ inputs: ['team/*.ndjson'], cwd: root, window: { now } })).rejects.toSatisfy(
      (e: unknown) =>
        BiasStoreError.isInstance(e) &&
        e.code === 'INVALID_OPTION' &&
        /team\/\*\.ndjson matches no file/.test(e.message),
    );
  });

  it('says clearly that a file does not exist', async () => {
    const root = tempDir();
    await expect(readBiasRecords({ inputs: ['nope.jsonl'], cwd: root, window: { now } })).rejects.toSatisfy(
      (e: unknown) =>
        BiasStoreError.isInstance(e) &&
        e.code === 'IO_ERROR' &&
        e.message.includes(`No bias records at ${join(root, 'nope.jsonl')}: the file does not exist`),
    );
  });

  it('reads a file given twice (or by two names) once, with no duplicates', async () => {
    const root = tempDir();
    const path = await writeStore(join(root, 'a', 'bias_metrics.jsonl'), [...s1, ...s2]);
    const r = await readBiasRecords({
      inputs: [path, path, 'a/../a/bias_metrics.jsonl', 'a'],
      cwd: root,
      window: { now },
    });
    expect(r.files).toEqual([{ path, lines: 6 }]);
    expect(r.records).toBe(6);
    expect(r.repeated).toEqual({ duplicates: 0, conflicts: 0, conflictSessions: [] });
    expect(r.columns.length).toBe(6);
  });

  it('reads gzipped closed segments as it reads plain files', async () => {
    const root = tempDir();
    const path = join(root, 'seg', 'bias_metrics.jsonl');
    const store = createBiasStore({ path });
    await store.append(s1);
    expect(await store.rotate()).toBe(1);
    await store.append(s2);
    expect(await store.rotate()).toBe(2);
    expect((await store.compact({ minAgeMs: 0 })).compacted).toBe(2);
    await store.append(s3);
    expect(
      readdirSync(join(root, 'seg'))
        .filter((n) => n.endsWith('.jsonl') || n.endsWith('.gz'))
        .sort(),
    ).toEqual(['bias_metrics.000001.jsonl.gz', 'bias_metrics.000002.jsonl.gz', 'bias_metrics.jsonl']);
    const plain = await writeStore(join(root, 'plain', 'bias_metrics.jsonl'), [...s1, ...s2, ...s3]);
    const [segmented, flat] = await Promise.all([
      readBiasRecords({ inputs: [path], window: { now } }),
      readBiasRecords({ inputs: [plain], window: { now } }),
    ]);
    expect(segmented.files.map((f) => [basename(f.path), f.lines])).toEqual([
      ['bias_metrics.000001.jsonl.gz', 3],
      ['bias_metrics.000002.jsonl.gz', 3],
      ['bias_metrics.jsonl', 2],
    ]);
    expect(plainColumns(segmented.columns)).toEqual(plainColumns(flat.columns));
    expect({ ...counts(segmented), files: null }).toEqual({ ...counts(flat), files: null });
    expect(columnsToObservations(segmented.columns)).toEqual([...s1, ...s2, ...s3].map(expectedObservation));
    // A segment file named directly reads its whole store.
    const viaSegment = await readBiasRecords({
      inputs: [join(root, 'seg', 'bias_metrics.000001.jsonl.gz')],
      window: { now },
    });
    expect(viaSegment.records).toBe(8);
  });
});

describe('readBiasRecords: older writers', () => {
  it('reads zone-less timestamps as UTC and says so, and knows which positions may be ranks', async () => {
    const base = {
      session_id: 's-old',
      reviewer_id: 'r/1',
      model_id: 'c/x',
      position: 1,
      response_length_chars: 10,
      score_value: 7,
      score_scale: '1-10',
      council_config_version: null,
      query_hash: null,
    };
    const lines = [
      // ADR-018 v1: integer version, no zone, no rank_position (position may be a rank).
      JSON.stringify({ schema_version: 1, ...base, timestamp: '2026-03-01T10:00:00' }),
      // The same without a zone, through JSON.parse (an escape).
      JSON.stringify({
        schema_version: '1.1.0',
        ...base,
        reviewer_id: 'r/2',
        timestamp: '2026-03-01T10:00:00',
        rank_position: 0,
      }).replace('r/2', 'r\\/2'),
      // Python 1.2.0: position is display order, microseconds, an unknown field.
      JSON.stringify({
        schema_version: '1.2.0',
        ...base,
        reviewer_id: 'r/3',
        timestamp: '2026-03-01T10:00:00.123456+00:00',
        position_is_display_order: true,
      }),
      // A simulated member (from the demo).
      JSON.stringify({
        schema_version: '1.1.0',
        ...base,
        reviewer_id: 'simulated:alpha',
        timestamp: '2026-03-01T10:00:00Z',
        rank_position: 1,
      }),
    ];
    const path = writeLines(join(tempDir(), 'old.jsonl'), lines);
    const r = await readBiasRecords({ inputs: [path], window: { now: new Date('2026-04-01T00:00:00Z') } });
    expect(r.records).toBe(4);
    expect(r.timestampsWithoutZone).toBe(2);
    expect(r.warnings).toEqual(['2 records had a timestamp without a zone; read as UTC.']);
    expect(Array.from(r.columns.time)).toEqual([
      at('2026-03-01T10:00:00Z'),
      at('2026-03-01T10:00:00Z'),
      at('2026-03-01T10:00:00.123Z'),
      at('2026-03-01T10:00:00Z'),
    ]);
    expect(Array.from(r.columns.positionIsDisplayOrder)).toEqual([0, 1, 1, 1]);
    expect(r.positionNotDisplayOrder).toBe(1);
    expect(r.simulatedRecords).toBe(1);
    expect(columnsToObservations(r.columns).map((o) => [o.reviewer, o.rankPosition])).toEqual([
      ['r/1', null],
      ['r/2', 0],
      ['r/3', null],
      ['simulated:alpha', 1],
    ]);
  });
});

it('keeps noRank for unranked records and NaN for unscored ones in the columns', async () => {
  const path = await writeStore(
    join(tempDir(), 'x.jsonl'),
    records([obs(['s', 'r/1'], '2026-03-01T00:00:00Z', { score: null, rankPosition: null })]),
  );
  const r = await readBiasRecords({ inputs: [path], window: { now: new Date('2026-04-01T00:00:00Z') } });
  expect(r.columns.rankPosition[0]).toBe(noRank);
  expect(r.columns.score[0]).toBeNaN();
});

describe('sessions left out (not saved whole yet)', () => {
  it('leaves out every record of the sessions named, counts them apart, and leaves the window to the rest', async () => {
    const path = await writeStore(
      join(tempDir(), 'bias_metrics.jsonl'),
      records([
        obs(['s1', 'r/a'], '2026-01-01T00:00:00Z'),
        obs(['s2', 'r/a'], '2026-01-02T00:00:00Z'),
        obs(['s2', 'r/b'], '2026-01-02T00:00:00Z'),
        obs(['s3', 'r/a'], '2026-01-03T00:00:00Z'),
      ]),
    );
    const r = await readBiasRecords({
      inputs: [path],
      leaveOutSessions: new Set(['s2', 'not-there']),
      window: { now: new Date('2026-02-01T00:00:00Z'), sessions: 2 },
    });
    // s2's two records are left out before the window: the last 2 sessions are then s1 and s3.
    expect(r.columns.sessionIds).toEqual(['s1', 's3']);
    expect(r.excluded).toEqual({ ...noExclusions, unsaved: 2 });
    expect(r.sessions).toBe(2);
    expect(r.records).toBe(4);
  });
});
