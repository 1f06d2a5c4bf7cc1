import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contributionRecordSchema, safeParseContributionRecord } from './contribution-record.js';
import type { ContributionRecord } from './contribution-record.js';
import { createContributionStore } from './create-contribution-store.js';
import { readContributionRecords } from './read-contribution-records.js';

const record: ContributionRecord = {
  schemaVersion: '1.0.0',
  recordId: 's1:openai/gpt-4o',
  sessionId: 's1',
  conversationId: null,
  timestamp: '2026-11-20T10:00:00.000Z',
  member: 'openai/gpt-4o',
  model: 'openai/gpt-4o',
  personality: null,
  strategy: 'consensus',
  mode: 'consensus',
  weight: 0.25,
  voteWinner: true,
  configVersion: '0.1.0',
};

function member(sessionId: string, memberId: string, fields: Partial<ContributionRecord> = {}): ContributionRecord {
  return { ...record, sessionId, member: memberId, model: memberId, recordId: `${sessionId}:${memberId}`, ...fields };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'contributions-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('contributionRecordSchema', () => {
  it('writes snake_case fields in the documented order, and reads them back', () => {
    // Written by hand from the record above and the field list of the README.
    const expected =
      '{"schema_version":"1.0.0","record_id":"s1:openai/gpt-4o","session_id":"s1","conversation_id":null,' +
      '"timestamp":"2026-11-20T10:00:00.000Z","member":"openai/gpt-4o","model":"openai/gpt-4o","personality":null,' +
      '"strategy":"consensus","mode":"consensus","weight":0.25,"vote_winner":true,"config_version":"0.1.0"}';
    expect(JSON.stringify(contributionRecordSchema.encode(record))).toBe(expected);
    const parsed = safeParseContributionRecord(JSON.parse(expected));
    expect(parsed).toEqual({ success: true, value: record });
  });

  it('refuses a weight outside [0, 1] and names the field', () => {
    const line = { ...contributionRecordSchema.encode(record), weight: 1.5 };
    const parsed = safeParseContributionRecord(line);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error.message).toMatch(/weight/);
  });
});

describe('createContributionStore', () => {
  it('appends whole lines and refuses records that break the write rules, writing nothing', async () => {
    const path = join(dir, 'contributions.jsonl');
    const store = createContributionStore({ path });
    await store.append([member('s1', 'a'), member('s1', 'b', { weight: 0 })]);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    await expect(store.append([{ ...member('s2', 'a'), recordId: 'other' }])).rejects.toThrow(
      /record_id must be "<session_id>:<member>"/,
    );
    await expect(store.append([{ ...member('s2', 'a'), timestamp: '2026-11-20T10:00:00' }])).rejects.toThrow(
      /with a zone/,
    );
    await expect(store.append([{ ...member('s2', 'a'), schemaVersion: '1.1.0' }])).rejects.toThrow(
      /schema_version must be "1.0.0"/,
    );
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe('readContributionRecords', () => {
  it('reports bad lines with file and line, refuses other major versions, and keeps the good records', async () => {
    const path = join(dir, 'contributions.jsonl');
    await createContributionStore({ path }).append([member('s1', 'a')]);
    appendFileSync(path, 'not json\n');
    appendFileSync(
      path,
      `${JSON.stringify({ ...contributionRecordSchema.encode(member('s2', 'a')), schema_version: '2.0.0' })}\n`,
    );
    appendFileSync(
      path,
      `${JSON.stringify({ ...contributionRecordSchema.encode(member('s3', 'a')), vote_winner: 'yes' })}\n`,
    );
    await createContributionStore({ path }).append([member('s4', 'a')]);
    await expect(readContributionRecords({ path, maxSessions: 2 } as never)).rejects.toThrow(
      'readContributionRecords: maxSessions is now sessions.',
    );
    const read = await readContributionRecords({ path });
    expect(read.records.map((r) => r.sessionId)).toEqual(['s1', 's4']);
    expect(read.skipped).toBe(3);
    expect(read.reasons).toMatchObject({ invalid_json: 1, unsupported_version: 1, invalid_record: 1 });
    expect(read.firstBadLines.map((b) => [b.line, b.reason])).toEqual([
      [2, 'invalid_json'],
      [3, 'unsupported_version'],
      [4, 'invalid_record'],
    ]);
    expect(read.firstBadLines[2]!.detail).toMatch(/vote_winner/);
  });

  it('counts a repeated (session, member) once: identical copies as duplicates, differing ones as conflicts with a warning', async () => {
    const path = join(dir, 'contributions.jsonl');
    const store = createContributionStore({ path });
    await store.append([member('s1', 'a'), member('s1', 'b', { weight: 0.75 })]);
    await store.append([member('s1', 'a')]);
    await store.append([member('s1', 'b', { weight: 0.5 })]);
    const read = await readContributionRecords({ path });
    expect(read.records.map((r) => [r.member, r.weight])).toEqual([
      ['a', 0.25],
      ['b', 0.75],
    ]);
    expect(read.repeated).toEqual({ duplicates: 1, conflicts: 1, conflictSessions: ['s1'] });
    expect(read.warnings.join(' ')).toMatch(/1 contribution record disagree.*s1/);
  });

  it('windows by the last sessions and by a start time, and reads a missing store as empty', async () => {
    const path = join(dir, 'contributions.jsonl');
    const store = createContributionStore({ path });
    await store.append([
      member('s1', 'a', { timestamp: '2026-11-01T00:00:00Z' }),
      member('s2', 'a', { timestamp: '2026-11-02T00:00:00Z' }),
      member('s2', 'b', { timestamp: '2026-11-02T00:00:00Z' }),
      member('s3', 'a', { timestamp: '2026-11-03T00:00:00Z' }),
    ]);
    expect((await readContributionRecords({ path, sessions: 2 })).records.map((r) => r.recordId)).toEqual([
      's2:a',
      's2:b',
      's3:a',
    ]);
    const since = await readContributionRecords({ path, since: '2026-11-03T00:00:00Z' });
    expect(since.records.map((r) => r.recordId)).toEqual(['s3:a']);
    expect(since.sessions).toBe(1);
    await expect(readContributionRecords({ path, since: 'yesterday' })).rejects.toThrow(
      /since "yesterday" is not an ISO 8601 date-time/,
    );
    await expect(readContributionRecords({ path, sessions: 0 })).rejects.toThrow(
      /readContributionRecords: sessions must be a positive integer/,
    );
    const missing = await readContributionRecords({ path: join(dir, 'nowhere', 'contributions.jsonl') });
    expect(missing.records).toEqual([]);
  });
});

describe('readContributionRecords: sessions left out', () => {
  it('leaves out the sessions not saved whole yet, and reads the rest', async () => {
    const path = join(dir, 'contributions.jsonl');
    await createContributionStore({ path }).append([
      member('s1', 'a'),
      member('s2', 'a'),
      member('s2', 'b'),
      member('s3', 'a'),
    ]);
    const read = await readContributionRecords({ path, leaveOutSessions: new Set(['s2']) });
    expect(read.records.map((r) => r.recordId)).toEqual(['s1:a', 's3:a']);
    expect(read.sessions).toBe(2);
  });
});
