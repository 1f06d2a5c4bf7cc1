import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BiasObservation, BiasSessionSummaries, BiasSessionSummary } from '@council/bias-audit';
import { aggregateBiasAudit, assertBiasSessionSummaries, summarizeBiasSessions } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { syntheticModels, syntheticObservations } from '../__fixtures__/synthetic-sessions.js';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { duckdbSessionSummaries } from './session-summaries.js';
import { exportBiasRecords } from '../export-bias-records.js';
import { readBiasRecords } from '../read-bias-records.js';

const tempDir = useTempDirs();
const now = new Date('2030-01-01T00:00:00Z');

/** Two numbers equal to 1e-9, relative to their size (the sums are added in another order). */
function close(actual: unknown, expected: unknown, where: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Math.abs(actual - expected) > 1e-9 * Math.max(1, Math.abs(actual), Math.abs(expected))) throw new Error(`${where}: ${actual} ≠ ${expected}`);
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (actual.length !== expected.length) throw new Error(`${where}: length ${actual.length} ≠ ${expected.length}`);
    expected.forEach((e, i) => close(actual[i], e, `${where}[${i}]`));
    return;
  }
  if (typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null) {
    const keys = Object.keys(expected).sort();
    expect(Object.keys(actual).sort(), where).toEqual(keys);
    for (const key of keys) close((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${where}.${key}`);
    return;
  }
  if (actual !== expected) throw new Error(`${where}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
}

/**
 * The score part with its columns in DuckDB's order (the reduce matches columns by name, so their order carries no
 * meaning): X̃'X̃, the counts, X̃'ỹ and the mean rows permuted alike; answers by author; pairs by author, reviewer.
 */
function inOrder(score: BiasSessionSummary['score'], columns: readonly string[]): BiasSessionSummary['score'] {
  const from = columns.map((c) => score.columns.indexOf(c));
  const m = score.columns.length;
  const byAuthor = (a: { author: string }, b: { author: string }): number => (a.author < b.author ? -1 : a.author > b.author ? 1 : 0);
  return {
    columns: from.map((j) => score.columns[j]!),
    records: from.map((j) => score.records[j]!),
    xtx: from.flatMap((a) => from.map((b) => score.xtx[a * m + b]!)),
    xty: from.map((j) => score.xty[j]!),
    yty: score.yty,
    answers: [...score.answers].sort(byAuthor).map((a) => ({ ...a, meanRow: from.map((j) => a.meanRow[j]!) })),
    pairs: [...score.pairs].sort((a, b) => byAuthor(a, b) || (a.reviewer < b.reviewer ? -1 : 1)),
  };
}

function expectSameSummaries(actual: BiasSessionSummaries, expected: BiasSessionSummaries): void {
  assertBiasSessionSummaries(actual);
  expect(actual.sessions.map((s) => s.session)).toEqual(expected.sessions.map((s) => s.session));
  expected.sessions.forEach((e, i) => {
    const a = actual.sessions[i]!;
    expect([...a.score.columns].sort(), e.session).toEqual([...e.score.columns].sort());
    const pairs = [...a.score.pairs].sort((x, y) => (x.author < y.author ? -1 : x.author > y.author ? 1 : x.reviewer < y.reviewer ? -1 : 1));
    close({ ...a, score: { ...a.score, pairs } }, { ...e, score: inOrder(e.score, a.score.columns) }, `session ${e.session}`);
  });
}

/**
 * The fixture store: 40 synthetic 5-member sessions (one in ten rank-only) with, beside them, self-review in the
 * first ten, every 13th record unscored but ranked, a second config version in one session, an ADR-018 v1 session
 * (integer schema_version, no rank_position), a repeated line, a conflicting one, and lines the reader skips.
 */
function fixtureLines(): { first: string[]; second: string[] } {
  const observations: BiasObservation[] = syntheticObservations({ sessions: 40, seed: 18 }).map((o, i) => (i % 13 === 5 ? { ...o, score: null } : o));
  const sessions = [...new Set(observations.map((o) => o.sessionId))];
  for (const [s, sessionId] of sessions.slice(0, 10).entries()) {
    const any = observations.find((o) => o.sessionId === sessionId)!;
    for (const [m, member] of syntheticModels.entries()) {
      observations.push({ ...any, reviewer: member, candidate: member, position: 4, responseLengthChars: 300 + 50 * m, score: 5 + ((s + m) % 5), rankPosition: 4 });
    }
  }
  const line = (o: BiasObservation, i: number): string =>
    JSON.stringify({
      schema_version: '1.1.0',
      session_id: o.sessionId,
      timestamp: o.timestamp,
      consent_level: 1,
      query_metadata: null,
      reviewer_id: o.reviewer,
      model_id: o.candidate,
      position: o.position,
      response_length_chars: o.responseLengthChars,
      score_value: o.score,
      score_scale: '1-10',
      council_config_version: o.sessionId === sessions[3] && i % 2 === 0 ? '0.5.0' : o.configVersion,
      query_hash: null,
      rank_position: o.rankPosition,
    });
  const lines = observations.map(line);
  const v1 = ['a', 'b', 'c'].flatMap((reviewer, r) =>
    ['a', 'b', 'c'].map((candidate, c) =>
      JSON.stringify({ schema_version: 1, session_id: 'v1-session', timestamp: '2026-03-01T09:00:00+01:00', reviewer_id: reviewer, model_id: candidate, position: (c + r) % 3, response_length_chars: 100 * (c + 1), score_value: 3 + ((r * 2 + c) % 4) }),
    ),
  );
  const conflict = JSON.parse(lines[7]!) as Record<string, unknown>;
  conflict['score_value'] = 1;
  const bad = ['not json', '{"schema_version":"2.0.0","session_id":"x"}', JSON.stringify({ ...conflict, position: -1 }), JSON.stringify({ ...conflict, session_id: 7 })];
  // Sessions cross the two files: the second file holds the last records of some sessions of the first.
  const cut = Math.floor(lines.length * 0.6);
  return { first: [...lines.slice(0, cut), bad[0]!, ...v1, lines[3]!, bad[1]!], second: [JSON.stringify(conflict), ...lines.slice(cut), bad[2]!, bad[3]!] };
}

function writeStore(dir: string): string[] {
  const { first, second } = fixtureLines();
  const plain = join(dir, 'alice.jsonl');
  const gzip = join(dir, 'bob.jsonl.gz');
  writeFileSync(plain, `${first.join('\n')}\n`);
  writeFileSync(gzip, gzipSync(`${second.join('\n')}\n`));
  return [plain, gzip];
}

describe('the per-session summaries by DuckDB', () => {
  it('equal the JS map over JSONL (plain and gzip) and over its Parquet export, and give the same report', async () => {
    const dir = tempDir();
    const inputs = writeStore(dir);
    const read = await readBiasRecords({ inputs, now, maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY });
    expect(read.repeated).toMatchObject({ duplicates: 1, conflicts: 1 });
    expect(read.skipped).toBe(4);
    const expected = summarizeBiasSessions(read.columns);
    expect(expected.sessions).toHaveLength(41);
    // The fixture has what it claims: self-review, unscored records, rank-only reviewers, the v1 session.
    expect(expected.sessions.some((s) => s.score.columns.some((c) => c.startsWith('self:')))).toBe(true);
    expect(expected.sessions.some((s) => s.indicators.rankBlocks.length > 0)).toBe(true);
    expect(expected.sessions.some((s) => s.score.answers.length > 0 && s.indicators.scoredRecords < s.records)).toBe(true);
    expect(expected.sessions.find((s) => s.session === 'v1-session')?.time).toBe('2026-03-01T08:00:00.000Z');

    const fromJsonl = await duckdbSessionSummaries({ inputs });
    expectSameSummaries(fromJsonl, expected);

    const exported = join(dir, 'export');
    await exportBiasRecords({ inputs, output: exported, format: 'parquet' });
    const fromParquet = await duckdbSessionSummaries({ inputs: [exported] });
    const readExport = await readBiasRecords({ inputs: [exported], now, maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY });
    expectSameSummaries(fromParquet, summarizeBiasSessions(readExport.columns));
    expectSameSummaries(fromParquet, expected);

    const options = { now, seed: 1, resamples: 200 };
    close(aggregateBiasAudit(fromJsonl, options), aggregateBiasAudit(expected, options), 'report');
    close(aggregateBiasAudit(fromParquet, options), aggregateBiasAudit(expected, options), 'report');
  }, 60_000);
});
