import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { appendHistory, historyMaxLineBytes, readHistory } from './history-log.js';
import type { HistoryEntry } from './history-log.js';

const tempDir = useTempDirs();

function entry(id: string, text = 'an answer'): HistoryEntry {
  return {
    schema_version: '1.0.0',
    council_version: '0.0.0-test',
    simulated: true,
    query_metadata: null,
    session: {
      sessionId: id,
      timestamp: '2026-01-02T03:04:05.000Z',
      stage1: [{ model: 'a', text }],
      stage2: [],
      leaderboard: [],
    },
  };
}

describe('the history log', () => {
  it('appends whole lines that read back in order', async () => {
    const path = join(tempDir(), 'home', 'history.jsonl');
    expect(await appendHistory(path, [entry('s1'), entry('s2')])).toEqual({ cut: 0, dropped: 0 });
    await appendHistory(path, [entry('s3')]);
    const read = await readHistory(path);
    expect(read.entries.map((e) => e.session.sessionId)).toEqual(['s1', 's2', 's3']);
    expect(read).toMatchObject({ skipped: 0, firstBadLine: null });
  });

  it('keeps the question when the entry has one, reads a line without one, and skips one whose question is not text', async () => {
    const path = join(tempDir(), 'history.jsonl');
    await appendHistory(path, [{ ...entry('asked'), question: 'How do I test a legacy module?' }, entry('older')]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}${JSON.stringify({ ...entry('bad'), question: 42 })}\n`);
    const read = await readHistory(path);
    expect(read.entries.map((e) => [e.session.sessionId, e.question])).toEqual([
      ['asked', 'How do I test a legacy module?'],
      ['older', undefined],
    ]);
    expect(read).toMatchObject({ skipped: 1, firstBadLine: 3 });
  });

  it('keeps a torn last line alone: the next append starts on a new line, and the reader skips and counts the torn one', async () => {
    const path = join(tempDir(), 'history.jsonl');
    await appendHistory(path, [entry('s1')]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"schema_version":"1.0.0","sess`);
    await appendHistory(path, [entry('s2')]);
    const read = await readHistory(path);
    expect(read.entries.map((e) => e.session.sessionId)).toEqual(['s1', 's2']);
    expect(read).toMatchObject({ skipped: 1, firstBadLine: 2 });
  });

  it('cuts the longest texts of an entry past 1 MiB so its line fits, and marks the cut', async () => {
    const path = join(tempDir(), 'history.jsonl');
    expect(historyMaxLineBytes).toBe(1024 * 1024);
    // Three 400,000-character answers: 1.2 MB whole, so they must be cut.
    const big: HistoryEntry = entry('big');
    big.session.stage1 = ['a', 'b', 'c'].map((model) => ({ model, text: 'x'.repeat(400_000) }));
    expect(await appendHistory(path, [big])).toEqual({ cut: 1, dropped: 0 });
    const line = readFileSync(path, 'utf8').trimEnd();
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(1024 * 1024);
    expect(line).toContain('more characters]');
    expect((await readHistory(path)).entries.map((e) => e.session.sessionId)).toEqual(['big']);
  });

  it('skips a line longer than the limit when reading, and lines that are not entries', async () => {
    const path = join(tempDir(), 'history.jsonl');
    await appendHistory(path, [entry('s1')]);
    const long = JSON.stringify(entry('long', 'y'.repeat(1024 * 1024)));
    writeFileSync(path, `${readFileSync(path, 'utf8')}${long}\n{"schema_version":"2.0.0"}\n`);
    const read = await readHistory(path);
    expect(read.entries.map((e) => e.session.sessionId)).toEqual(['s1']);
    expect(read).toMatchObject({ skipped: 2, firstBadLine: 2 });
  });

  it('reads a missing log as empty', async () => {
    expect(await readHistory(join(tempDir(), 'none.jsonl'))).toEqual({ entries: [], skipped: 0, firstBadLine: null });
  });
});
