import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BiasObservation, BiasSessionSummaries } from '@council/bias-audit';
import { aggregateBiasAudit, summarizeBiasSessions } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { expectSameSummaries } from '../__fixtures__/expect-same-summaries.js';
import { syntheticModels, syntheticObservations } from '../__fixtures__/synthetic-sessions.js';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { duckdbSessionSummaries } from './session-summaries.js';
import { UNROLLED_ANSWERS } from './summary-sql.js';
import { exportBiasRecords } from '../export-bias-records.js';
import { readBiasRecords } from '../read-bias-records.js';

const tempDir = useTempDirs();
const now = new Date('2030-01-01T00:00:00Z');

/**
 * A store of `sessions` synthetic 5-member sessions (one in ten rank-only) with, beside them, every 13th record
 * unscored but ranked, self-review in the first ten sessions and then one in four, one in seven sessions without
 * one member, one in three with its records in another order than reviewer by reviewer, a second config version in
 * one session, an ADR-018 v1 session (integer schema_version, no rank_position, its members met out of name order and
 * named beyond U+FFFF), a 10-member session, a repeated line, a conflicting one, and lines the reader skips; sessions cross the two files.
 */
function fixtureLines(spec: { sessions: number; seed: number }): { first: string[]; second: string[] } {
  const all: BiasObservation[] = syntheticObservations({ sessions: spec.sessions, seed: spec.seed }).map((o, i) => (i % 13 === 5 ? { ...o, score: null } : o));
  const sessions = [...new Set(all.map((o) => o.sessionId))];
  const observations = sessions.flatMap((sessionId, s) => {
    const absent = syntheticModels[s % syntheticModels.length]!;
    const own = all.filter((o) => o.sessionId === sessionId && (s % 7 !== 3 || (o.reviewer !== absent && o.candidate !== absent)));
    return s % 3 === 1 ? own.map((o, i) => ({ o, key: (i * 7) % own.length })).sort((a, b) => a.key - b.key).map(({ o }) => o) : own;
  });
  for (const [s, sessionId] of sessions.entries()) {
    if (!(s < 10 || s % 4 === 0)) continue;
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
  const v1Members = ['c\uE000', 'c\u{1F600}', 'a'];
  const v1 = v1Members.flatMap((reviewer, r) =>
    v1Members.map((candidate, c) =>
      JSON.stringify({ schema_version: 1, session_id: 'v1-session', timestamp: '2026-03-01T09:00:00+01:00', reviewer_id: reviewer, model_id: candidate, position: (c + r) % 3, response_length_chars: 100 * (c + 1), score_value: 3 + ((r * 2 + c) % 4) / 10 }),
    ),
  );
  // A 10-member council, each member scoring every answer (its own too) at a position of its own shuffle.
  const big = Array.from({ length: 10 }, (_, m) => `member-${String.fromCharCode(106 - m)}`);
  const council = big.flatMap((reviewer, r) =>
    big.map((candidate, c) =>
      JSON.stringify({ schema_version: '1.2.0', session_id: 'big-council', timestamp: '2026-02-01T10:00:00Z', reviewer_id: reviewer, model_id: candidate, position: (c * 3 + r) % 10, response_length_chars: 500 + 37 * c, score_value: 1 + ((r * 7 + c * 3) % 90) / 10, rank_position: null }),
    ),
  );
  const conflict = JSON.parse(lines[7]!) as Record<string, unknown>;
  conflict['score_value'] = 1;
  const bad = ['not json', '{"schema_version":"2.0.0","session_id":"x"}', JSON.stringify({ ...conflict, position: -1 }), JSON.stringify({ ...conflict, session_id: 7 })];
  // Sessions cross the two files: the second file holds the last records of some sessions of the first.
  const cut = Math.floor(lines.length * 0.6);
  return { first: [...lines.slice(0, cut), bad[0]!, ...v1, lines[3]!, bad[1]!, ...council], second: [JSON.stringify(conflict), ...lines.slice(cut), bad[2]!, bad[3]!] };
}

function writeStore(dir: string, spec: { sessions: number; seed: number }): string[] {
  const { first, second } = fixtureLines(spec);
  const plain = join(dir, 'alice.jsonl');
  const gzip = join(dir, 'bob.jsonl.gz');
  writeFileSync(plain, `${first.join('\n')}\n`);
  writeFileSync(gzip, gzipSync(`${second.join('\n')}\n`));
  return [plain, gzip];
}

const window = { now, maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY };

/** The JS map's summaries of `inputs` and its report, against DuckDB's over the same inputs: the same JSON. */
async function expectSameAsJs(inputs: string[]): Promise<BiasSessionSummaries> {
  const read = await readBiasRecords({ inputs, ...window });
  const expected = summarizeBiasSessions(read.columns);
  const actual = await duckdbSessionSummaries({ inputs });
  expectSameSummaries(actual, expected);
  const options = { now, seed: 1, resamples: 200 };
  const everything = { maxSessions: Number.POSITIVE_INFINITY, maxDays: Number.POSITIVE_INFINITY };
  const report = JSON.stringify(aggregateBiasAudit(read.columns, { ...options, ...everything }));
  expect(JSON.stringify(aggregateBiasAudit(actual, { ...options, summariesWindow: everything }))).toBe(report);
  return expected;
}

describe('the per-session summaries by DuckDB', () => {
  it.each([
    { sessions: 40, seed: 18 },
    { sessions: 300, seed: 7 },
  ])('equal the JS map to the bit over JSONL (plain and gzip) and over its Parquet export, and give the same report ($sessions sessions)', async (spec) => {
    const dir = tempDir();
    const inputs = writeStore(dir, spec);
    const read = await readBiasRecords({ inputs, ...window });
    expect(read.repeated).toMatchObject({ duplicates: 1, conflicts: 1 });
    expect(read.skipped).toBe(4);
    const expected = await expectSameAsJs(inputs);
    expect(expected.sessions).toHaveLength(spec.sessions + 2);
    // A session with more answers than the SQL unrolls (its X̃'X̃ takes the general path).
    expect(expected.sessions.find((s) => s.session === 'big-council')!.score.answers.filter((a) => a.count >= 2).length).toBeGreaterThan(UNROLLED_ANSWERS);
    // The store has what it claims: self-review, unscored records, rank-only reviewers, 4-member sessions, the v1 session.
    expect(expected.sessions.some((s) => s.score.columns.some((c) => c.startsWith('self:')))).toBe(true);
    expect(expected.sessions.some((s) => s.indicators.rankBlocks.length > 0)).toBe(true);
    expect(expected.sessions.some((s) => s.score.answers.length > 0 && s.indicators.scoredRecords < s.records)).toBe(true);
    expect(expected.sessions.some((s) => s.members.length === 4)).toBe(true);
    expect(expected.sessions.some((s) => s.configVersions.length === 2)).toBe(true);
    const v1 = expected.sessions.find((s) => s.session === 'v1-session')!;
    expect(v1.time).toBe('2026-03-01T08:00:00.000Z');
    // Answers by their authors' names in UTF-16 order (as JS's < orders them, the order of the JS's sums), not in
    // the order the reader met them nor in code point order (U+1F600 is below U+E000 in UTF-16).
    expect(v1.score.answers.map((a) => a.author)).toEqual(['a', 'c\u{1F600}', 'c\uE000']);

    const exported = join(dir, 'export');
    await exportBiasRecords({ inputs, output: exported, format: 'parquet' });
    await expectSameAsJs([exported]);
  }, 120_000);
});
