import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { aggregateBiasAudit } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { syntheticObservations } from './__fixtures__/synthetic-sessions.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { toDiskRecord } from './bias-metric-record.js';
import { readBiasRecords } from './read-bias-records.js';
import { recordsFromObservations } from './records-from-observations.js';

const tempDir = useTempDirs();
const now = new Date('2027-01-01T00:00:00Z');
const all = { now, sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };

/**
 * Two files of 6 synthetic sessions each (5 members, each ranking the 4 others 0–3: 20 lines a session), where line 7 of
 * the second file holds the second reviewer's last-ranked record with `rank_position` 4 instead of 3: it ranked 4
 * answers, so 4 is no place among them (0–3). Also the same files without that line, for the report it must equal.
 */
function store(dir: string, gzip = false): { files: string[]; without: string[]; session: string; bad: string[] } {
  const records = recordsFromObservations(syntheticObservations({ sessions: 12, seed: 29 }), {
    consent: 1,
    hashSecret: null,
    query: null,
  });
  const lines = records.map((r) => JSON.stringify(toDiskRecord(r)));
  const first = lines.slice(0, 120);
  const second = lines.slice(120);
  // Records 4–7 of a session are its second reviewer's four (syntheticObservations: reviewer by reviewer), ranked 0–3.
  const ranking = records.slice(124, 128);
  expect(new Set(ranking.map((r) => r.reviewerId)).size).toBe(1);
  expect(ranking.map((r) => r.rankPosition).sort()).toEqual([0, 1, 2, 3]);
  // The one it ranked last (3) moves to line 7 with rank 4: the other three, 0–2, are then whole without it.
  const last = ranking.findIndex((r) => r.rankPosition === 3);
  const bad = ranking[last]!;
  [second[4 + last], second[6]] = [second[6]!, second[4 + last]!];
  second[6] = JSON.stringify({ ...toDiskRecord(bad), rank_position: 4 });
  const write = (name: string, body: string[]): string => {
    const path = join(dir, gzip ? `${name}.jsonl.gz` : `${name}.jsonl`);
    const text = `${body.join('\n')}\n`;
    writeFileSync(path, gzip ? gzipSync(text) : text);
    return path;
  };
  const files = [write('a', first), write('b', second)];
  const without = [
    write('a-without', first),
    write(
      'b-without',
      second.filter((_, i) => i !== 6),
    ),
  ];
  return { files, without, session: bad.sessionId, bad: [bad.reviewerId, bad.modelId] };
}

const report = (columns: Parameters<typeof aggregateBiasAudit>[0]): string =>
  JSON.stringify(aggregateBiasAudit(columns, { window: all, seed: 1, resamples: 200 }));

describe('readBiasRecords: a rank out of range of its reviewer ranking is an invalid record', () => {
  it('is skipped with its file:line and reason, and the report is that of the store without the line', async () => {
    const { files, without, session } = store(tempDir());
    const read = await readBiasRecords({ inputs: files, window: all });
    expect(read.skipped).toBe(1);
    expect(read.reasons.invalid_record).toBe(1);
    expect(read.firstBadLines).toEqual([
      {
        file: files[1],
        line: 7,
        reason: 'invalid_record',
        detail: `rank_position 4 but the reviewer ranked 4 answers in session ${session}: ranks are 0-based, 0–3`,
      },
    ]);
    // 240 lines: 239 valid records and 1 skipped, as for any invalid line.
    expect(read.lines).toBe(240);
    expect(read.records).toBe(239);
    expect(read.columns.length).toBe(239);
    const reference = await readBiasRecords({ inputs: without, window: all });
    expect(reference.skipped).toBe(0);
    expect(Array.from(read.columns.rankPosition)).toEqual(Array.from(reference.columns.rankPosition));
    expect(Array.from(read.columns.score)).toEqual(Array.from(reference.columns.score));
    expect(report(read.columns)).toBe(report(reference.columns));
  });

  it('is found in a gzipped file too, after the lines the read skipped', async () => {
    const dir = tempDir();
    const { files } = store(dir, true);
    writeFileSync(join(dir, 'c.jsonl'), 'not json\n');
    const read = await readBiasRecords({ inputs: [...files, join(dir, 'c.jsonl')], window: all });
    expect(read.skipped).toBe(2);
    expect(read.reasons).toMatchObject({ invalid_json: 1, invalid_record: 1 });
    expect(read.firstBadLines.map(({ file, line, reason }) => [file, line, reason])).toEqual([
      [join(dir, 'c.jsonl'), 1, 'invalid_json'],
      [files[1], 7, 'invalid_record'],
    ]);
  });

  it('is judged among the window records: a window by the reviewed member keeps one rank of that reviewer, unjudged', async () => {
    const { files, bad } = store(tempDir());
    const [reviewer, member] = bad as [string, string];
    // By the reviewer: its whole ranking is in the window, and the rank is out of it.
    expect((await readBiasRecords({ inputs: files, window: { ...all, model: reviewer } })).skipped).toBe(1);
    // By the reviewed member (not the reviewer): the window holds that reviewer's one record about it, and one rank
    // places nothing (no statistic reads it), so nothing is judged.
    const byMember = await readBiasRecords({ inputs: files, window: { ...all, model: member } });
    expect(byMember.skipped).toBe(0);
    // A window of sessions without it: not judged either.
    expect((await readBiasRecords({ inputs: files, window: { ...all, sessions: 5 } })).skipped).toBe(0);
  });
});
