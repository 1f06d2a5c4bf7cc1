import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BiasObservation, BiasWindowOptions } from '@council/bias-audit';
import { summarizeBiasSessions } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { biasLine as line } from '../__fixtures__/bias-line.js';
import { firstDifference } from '../__fixtures__/expect-same-summaries.js';
import { resolvedRecords } from '../__fixtures__/resolved-records.js';
import { syntheticObservations } from '@council/bias-store/test';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { exportBiasRecords, readBiasRecords } from '@council/bias-store';
import type { ReadBiasRecordsOptions } from '@council/bias-store';
import { duckdbBiasRead } from './bias-read.js';
import { loadDuckdb } from './load-duckdb.js';
import { biasParquet } from '../bias-parquet.js';

const tempDir = useTempDirs();
const now = new Date('2026-01-05T00:00:00Z');

/**
 * Three stores' worth of lines over 60 synthetic sessions (one every 90 minutes from 1 January 2026, so a window of
 * days cuts them): the records the reader reads in every way it reads them, and every kind of line it skips. Returns
 * the lines of each file, by name.
 */
function fixtureFiles(): Record<string, string[]> {
  const observations = syntheticObservations({
    sessions: 60,
    seed: 11,
    start: '2026-01-01T00:00:00Z',
    minutesApart: 90,
  });
  const sessions = [...new Set(observations.map((o) => o.sessionId))];
  const of = (s: number): BiasObservation[] => observations.filter((o) => o.sessionId === sessions[s]);
  const lines = (from: number, to: number): string[] =>
    observations
      .filter((o) => sessions.indexOf(o.sessionId) >= from && sessions.indexOf(o.sessionId) < to)
      .map((o) => line(o));
  const a = of(0)[0]!;
  const b = of(1)[0]!;
  const c = of(2)[0]!;
  const tricky = [
    // Records the reader reads through its slow path or in unusual forms.
    line(
      { ...a, sessionId: 'v1-\u{1F600}', reviewer: 'simulated:alpha', candidate: 'simulated:beta' },
      {
        schema_version: 1,
        query_metadata: undefined,
        consent_level: undefined,
        rank_position: undefined,
        score_scale: undefined,
        council_config_version: undefined,
        query_hash: undefined,
        timestamp: '2026-01-02T10:30:00',
      },
    ),
    line(
      { ...a, sessionId: 'v1-\u{1F600}', reviewer: 'simulated:beta', candidate: 'simulated:alpha' },
      {
        schema_version: '1.2',
        rank_position: undefined,
        timestamp: '2026-01-02 10:30+0100',
        position_is_display_order: true,
      },
    ),
    line(
      { ...a, sessionId: 'odd-times', reviewer: 'm1', candidate: 'm2' },
      { timestamp: '2026-01-02t10:30:00,123456789z', position: 2.0, response_length_chars: 1e3, score_value: 7.3 },
    ),
    line(
      { ...a, sessionId: 'odd-times', reviewer: 'm2', candidate: 'm1' },
      {
        timestamp: '0050-02-28T23:59:59.9999-23:59',
        score_value: -0.0,
        query_metadata: { token_bucket: 'long', category: null },
      },
    ),
    line(
      { ...a, sessionId: 'odd-times', reviewer: 'm3', candidate: 'm1' },
      { timestamp: '0000-02-29T00:00:00Z', score_value: 0.30000000000000004, unknown_field: [1, 2] },
    ),
    line(
      { ...a, sessionId: 'esc\u00e9"\\', reviewer: 'm\u0000', candidate: 'pair\u{1F600}' },
      { score_value: 2.225073858507201e-308, rank_position: null },
    ),
    '{"schema_version":"1.1.0","session_id":"dup","timestamp":"2026-01-03T00:00:00Z","reviewer_id":"x","model_id":"y","position":0,"response_length_chars":5,"score_value":1,"score_value":9}',
    '  {"schema_version" : "1.1.0", "session_id":"spaced","timestamp":"2026-01-03T00:00:00Z","reviewer_id":"x","model_id":"y","position":0,"response_length_chars":5,"score_value":null}  \r',
    // A repeat of an earlier record (a duplicate) and a record disagreeing with one (a conflict).
    line(a),
    line(b, { score_value: (b.score ?? 0) + 1 }),
    // Scores 0 and -0 (as Python writes it) differ to the reader (Object.is): a conflict.
    line({ ...c, sessionId: 'signed-zero' }, { score_value: 0 }),
    line({ ...c, sessionId: 'signed-zero' }, { score_value: 0 }).replace('"score_value":0', '"score_value":-0.0'),
  ];
  const bad = [
    'not json',
    '[1, 2]',
    '"a string"',
    '{"schema_version":"2.0.0","session_id":"x"}',
    '{"schema_version":"10","session_id":"x"}',
    '{"schema_version":3}',
    line(a, { position: -1 }),
    line(a, { session_id: 7 }),
    line(a, { session_id: '' }),
    line(a, { score_value: undefined }),
    line(a, { timestamp: '2025-02-29T10:00:00Z' }),
    line(a, { timestamp: '2025-01-01T10:00:00+24:00' }),
    line(a, { timestamp: '2025-01-01T24:00:00Z' }),
    line(a, { timestamp: '2025-01-01T10:00:00.1234567890Z' }),
    line(a, { timestamp: '2025-01-01' }),
    line(a, { position: 4294967295 }),
    line(a, { rank_position: 4294967296 }),
    line(a, { response_length_chars: 1.5 }),
    line(a, { consent_level: 5 }),
    line(a, { query_hash: 'ABCDEF0123456789' }),
    line(a, { query_metadata: { category: 3 } }),
    line(a, { query_metadata: [] }),
    line(a, { schema_version: '1.x' }),
    line(a, { score_value: '7' }),
    line(a).replace(/}$/, ',}'),
    line(a).replace('"consent_level":1', '"consent_level":1 , \t\r}'),
    line(a).replace('"score_scale":"1-10"', '"score_scale":"1-10","extra":NaN'),
    line(a).replace('"position":', '"position":\u000b'),
    '\u000c',
    line(a, { score_value: null }).replace('"score_value":null', '"score_value":1e400'),
    '{"session_id":"a"} {"session_id":"b"}',
  ];
  const tooLong = line(a, { pad: 'x'.repeat(1024 * 1024) });
  return {
    'store/bias_metrics.000001.jsonl': ['', ...lines(0, 20), ...tricky.slice(0, 6), '   ', '\t'],
    'store/bias_metrics.000002.jsonl.gz': [...lines(20, 35), ...bad.slice(0, 15), tooLong],
    'store/bias_metrics.jsonl': [...lines(35, 50), ...tricky.slice(6), ...bad.slice(15)],
    'other.jsonl': [`\ufeff${line(of(50)[0]!)}`, ...lines(50, 60).slice(1), ...lines(3, 4), 'torn {"a":'],
  };
}

function writeFixture(dir: string): void {
  mkdirSync(join(dir, 'store'));
  for (const [name, lines] of Object.entries(fixtureFiles())) {
    const text = name === 'other.jsonl' ? lines.join('\n') : `${lines.join('\n')}\n`; // other.jsonl ends in a torn line
    const bytes = Buffer.concat([
      Buffer.from(text),
      name.endsWith('000001.jsonl') ? Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]) : Buffer.alloc(0),
    ]);
    writeFileSync(join(dir, name), name.endsWith('.gz') ? gzipSync(bytes) : bytes);
  }
}

/**
 * DuckDB's read against the reader's: every count of `readBiasRecords` (files and their lines, skips with their
 * reasons and details, window exclusions, repeats…) equal, and the same records — each session's, in order, field by
 * field, names resolved (the two may number names differently) — so the JS map's summaries are the same to the bit.
 */
async function expectSameRead(options: ReadBiasRecordsOptions): Promise<Awaited<ReturnType<typeof readBiasRecords>>> {
  const js = await readBiasRecords({ ...options, parquet: biasParquet });
  const { columns: expected, ...counts } = js;
  const { columns, ...duck } = await duckdbBiasRead(options);
  expect(duck).toEqual(counts);
  expect(resolvedRecords(columns)).toEqual(resolvedRecords(expected));
  expect(firstDifference(summarizeBiasSessions(columns), summarizeBiasSessions(expected), 'summaries')).toBeNull();
  return js;
}

describe('duckdbBiasRead', () => {
  const fixture = (): string => {
    const dir = tempDir();
    writeFixture(dir);
    return dir;
  };

  it('reads what the reader reads: every kind of line, repeats and conflicts, v1 and zone-less records', async () => {
    const dir = fixture();
    const read = await expectSameRead({ inputs: [join(dir, 'store'), join(dir, 'other.jsonl')], window: { now } });
    // The fixture holds what it claims (counted by hand from fixtureFiles).
    expect(read.files).toHaveLength(4);
    // 31 bad lines (7 not JSON, 21 not records, 3 of later majors), one too long, one not UTF-8, one torn.
    expect(read.skipped).toBe(34);
    expect(read.reasons).toEqual({
      invalid_json: 7,
      invalid_record: 21,
      unsupported_version: 3,
      invalid_utf8: 1,
      line_too_long: 1,
      torn_line: 1,
      corrupt_segment: 0,
    });
    expect(read.foreignMajors).toEqual([2, 10, 3]);
    // A repeated record and a repeated session (20 records); a changed score and a score of -0 after 0.
    expect(read.repeated).toMatchObject({ duplicates: 21, conflicts: 2 });
    expect(read.timestampsWithoutZone).toBe(1);
    expect(read.simulatedRecords).toBe(2);
    // The v1 record, and the two lines without rank_position under schema 1.1.0 (the 1.2 one is display order).
    expect(read.positionNotDisplayOrder).toBe(3);
  }, 60_000);

  it("a report read (columns: 'report'): every count and kept record the same, without the columns statistics never read", async () => {
    const dir = fixture();
    for (const window of [{ now }, { now, sessions: 7 }, { now, model: 'openai/gpt-5.1' }]) {
      const options = { inputs: [join(dir, 'store'), join(dir, 'other.jsonl')], window };
      const { columns: all, ...counts } = await duckdbBiasRead(options);
      const { columns, ...reportCounts } = await duckdbBiasRead({ ...options, columns: 'report' });
      expect(reportCounts).toEqual(counts);
      expect(columns.session).toBeUndefined();
      expect(columns.time).toBeUndefined();
      expect(columns.queryCategory).toBeUndefined();
      expect(columns.positionIsDisplayOrder).toBeUndefined();
      const { session: _s, time: _t, queryCategory: _q, positionIsDisplayOrder: _p, ...statistics } = all;
      expect(columns).toEqual(statistics);
    }
  }, 60_000);

  it('a report read tells a duplicate from a conflict by the fields it leaves out: time, category, display order', async () => {
    const dir = tempDir();
    const at = ([sessionId, hour, reviewer, candidate]: [string, number, string, string]): BiasObservation => ({
      sessionId,
      timestamp: `2026-01-02T0${hour}:00:00.000Z`,
      reviewer,
      candidate,
      position: candidate === 'm/1' ? 0 : 1,
      responseLengthChars: candidate === 'm/1' ? 100 : 200,
      score: candidate === 'm/1' ? 7 : 5,
      rankPosition: candidate === 'm/1' ? 0 : 1,
      configVersion: '1.0.0',
      queryCategory: 'coding',
    });
    const [a, b, c, d, e, f, g] = [
      at(['s1', 0, 'r/1', 'm/1']),
      at(['s1', 0, 'r/1', 'm/2']),
      at(['s2', 1, 'r/2', 'm/1']),
      at(['s3', 2, 'r/3', 'm/1']),
      at(['s3', 2, 'r/3', 'm/2']),
      at(['s4', 3, 'r/4', 'm/1']),
      at(['s4', 3, 'r/4', 'm/2']),
    ] as const;
    // Under schema 1.1.0 a record without rank_position may hold a rank in `position` (not display order); with
    // rank_position null it is display order.
    const lines = [
      line(a),
      line(b),
      line(a), // a duplicate
      line(b, { timestamp: '2026-01-02T00:00:01.000Z' }), // a conflict: the time alone
      line(c),
      line(c, { query_metadata: { category: 'math', token_count_bucket: 'short', language: 'en' } }), // the category alone
      line(d, { rank_position: null }),
      line(d, { rank_position: undefined }), // a conflict: display order alone
      line(e, { rank_position: undefined }),
      line(f, { rank_position: undefined }),
      line(g),
    ];
    writeFileSync(join(dir, 'bias_metrics.jsonl'), `${lines.join('\n')}\n`);
    const options = { inputs: [join(dir, 'bias_metrics.jsonl')], window: { now } };
    const { columns, ...report } = await duckdbBiasRead({ ...options, columns: 'report' });
    expect(report.repeated).toEqual({ duplicates: 1, conflicts: 3, conflictSessions: ['s1', 's2', 's3'] });
    expect(report.warnings).toEqual([
      '3 records disagree with an earlier record of the same session, reviewer and reviewed member (sessions s1, s2, s3): the first read was kept. Two inputs may hold different councils under one session id.',
    ]);
    // Kept: s1's a and b, s2's c, s3's d (display order) and e (not), s4's f (not) and g; the repeat of d was not.
    expect(columns.length).toBe(7);
    expect([...columns.sessionStart]).toEqual([0, 2, 3, 5, 7]);
    expect(report.positionNotDisplayOrder).toBe(2);
    const { columns: _c, ...reader } = await readBiasRecords(options);
    expect(report).toEqual(reader);
  }, 60_000);

  it.each([
    ['the last sessions', { sessions: 7 }],
    ['the last days', { days: 2 }],
    ['a now that cuts records off', { now: new Date('2026-01-02T12:00:00Z'), sessions: 5 }],
    ['a model', { model: 'openai/gpt-5.1', sessions: 12 }],
    ['a config version', { configVersion: '0.3.0' }],
  ])(
    'applies the window as the reader does: %s',
    async (_name, window: BiasWindowOptions) => {
      const dir = fixture();
      await expectSameRead({ inputs: [join(dir, 'store'), join(dir, 'other.jsonl')], window: { now, ...window } });
    },
    60_000,
  );

  it('reads globs, and a Parquet export, as the reader does', async () => {
    const dir = fixture();
    await expectSameRead({
      inputs: [join(dir, 'store', 'bias_metrics.0*'), join(dir, 'o*.jsonl')],
      window: { now, sessions: 30 },
    });
    const exported = join(dir, 'export');
    await exportBiasRecords({
      parquet: biasParquet,
      inputs: [join(dir, 'store')],
      output: exported,
      format: 'parquet',
    });
    await expectSameRead({ inputs: [exported, join(dir, 'other.jsonl')], window: { now, days: 3 } });
  }, 60_000);

  it('reads Parquet rows the reader skips as it skips them', async () => {
    const file = join(tempDir(), 'rows.parquet');
    const { DuckDBInstance } = await loadDuckdb();
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const row = ([version, session, position, score, pido]: [string | null, string, number, string, string]): string =>
      `(${version === null ? 'NULL' : `'${version}'`}, '${session}', TIMESTAMPTZ '2026-01-02 00:00:00.0005+00', 'r', 'm', ${position}, 10, ${score}, NULL::INTEGER, ${pido}, NULL::VARCHAR, 'coding')`;
    await connection.run(
      `COPY (SELECT * FROM (VALUES ${[
        row(['1.1.0', 's1', 0, '5.5', 'true']),
        row(['2.0.0', 's1', 1, '5', 'true']),
        row([null, 's1', 1, '5', 'true']),
        row(['1.1.0', '', 1, '5', 'true']),
        row(['1.1.0', 's2', -1, '5', 'true']),
        row(['1.1.0', 's2', 1, "'NaN'::DOUBLE", 'true']),
        row(['1.1.0', 's2', 1, '5', 'NULL']),
        row(['1', 's2', 2, 'NULL', 'false']),
      ].join(
        ', ',
      )}) AS t(schema_version, session_id, timestamp, reviewer_id, model_id, position, response_length_chars, score_value, rank_position, position_is_display_order, council_config_version, query_category)) TO '${file}' (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    const read = await expectSameRead({ inputs: [file], window: { now } });
    expect(read.skipped).toBe(6);
    expect(read.records).toBe(2);
    // A damaged Parquet file beside it: the reader's scanner reports it, DuckDB does not read it.
    const damaged = join(tempDir(), 'damaged.parquet');
    writeFileSync(damaged, Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64, 7), Buffer.from('PAR1')]));
    const both = await expectSameRead({ inputs: [damaged, file], window: { now } });
    expect(both.reasons.corrupt_segment).toBe(1);
  }, 60_000);

  it('refuses a name DuckDB cannot hold (a lone surrogate) instead of reading it otherwise than the reader', async () => {
    const other = tempDir();
    const [o] = syntheticObservations({ sessions: 1, seed: 5 });
    writeFileSync(join(other, 'lone.jsonl'), `${line({ ...o!, candidate: 'lone\ud800' })}\n`);
    expect(
      (await readBiasRecords({ parquet: biasParquet, inputs: [join(other, 'lone.jsonl')], window: { now } })).records,
    ).toBe(1);
    await expect(duckdbBiasRead({ inputs: [join(other, 'lone.jsonl')], window: { now } })).rejects.toThrow(
      /Line 1 of .*lone\.jsonl names .* lone UTF-16 surrogate/,
    );
  });

  it('leaves a file DuckDB cannot scan (an object broken over two lines) to the reader, and a damaged gzip segment', async () => {
    const other = tempDir();
    const observations = syntheticObservations({ sessions: 5, seed: 3, start: '2026-01-01T00:00:00Z' });
    writeFileSync(
      join(other, 'broken.jsonl'),
      `${observations
        .slice(0, 30)
        .map((o) => line(o))
        .join('\n')}\n{"schema_version":\n"1.1.0"}\n${observations
        .slice(30)
        .map((o) => line(o))
        .join('\n')}\n`,
    );
    const gzip = gzipSync(
      Buffer.from(`${observations.map((o) => line(o, { score_value: 1 })).join('\n')}\n`.repeat(40)),
    );
    gzip.fill(7, Math.floor(gzip.length / 2), Math.floor(gzip.length / 2) + 40);
    writeFileSync(join(other, 'damaged.jsonl.gz'), gzip);
    const read = await expectSameRead({
      inputs: [join(other, 'broken.jsonl'), join(other, 'damaged.jsonl.gz')],
      window: { now },
    });
    expect(read.reasons.corrupt_segment).toBe(1);
    expect(read.firstBadLines.slice(0, 2).map((b) => [b.line, b.reason])).toEqual([
      [31, 'invalid_json'],
      [32, 'invalid_json'],
    ]);
  }, 60_000);
});
