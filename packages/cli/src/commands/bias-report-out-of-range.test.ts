import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import { syntheticObservations } from '@council/bias-store/test';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import type { BiasReportDocument } from './bias-report-command.js';

async function council(argv: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out(), err: c.err() };
}

const window = ['--sessions', '1000', '--days', '1000', '--now', '2027-01-01T00:00:00Z'];

/**
 * A store of 30 synthetic sessions (5 members, each ranking the 4 others 0–3: 20 lines a session) where line 7 holds the
 * second reviewer's last-ranked record of the first session with rank_position 4 instead of 3 (4 ranked answers: 0–3),
 * and the same store without that line.
 */
async function stores(): Promise<{ dir: string; path: string; without: string; session: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'council-ranks-'));
  const observations = syntheticObservations({ sessions: 30, seed: 29 });
  const ranking = observations.slice(4, 8);
  expect(ranking.map((o) => o.rankPosition).sort()).toEqual([0, 1, 2, 3]);
  const last = ranking.findIndex((o) => o.rankPosition === 3);
  const moved = [...observations];
  [moved[4 + last], moved[6]] = [moved[6]!, moved[4 + last]!];
  const path = join(dir, 'bias_metrics.jsonl');
  await createBiasStore({ path }).append(recordsFromObservations(moved, { consent: 1, hashSecret: null, query: null }));
  const lines = readFileSync(path, 'utf8').split('\n');
  const bad = JSON.parse(lines[6]!) as Record<string, unknown>;
  expect(bad.rank_position).toBe(3);
  const without = join(dir, 'without.jsonl');
  writeFileSync(without, lines.filter((_, i) => i !== 6).join('\n'));
  lines[6] = JSON.stringify({ ...bad, rank_position: 4 });
  writeFileSync(path, lines.join('\n'));
  return { dir, path, without, session: observations[0]!.sessionId };
}

describe('council bias-report: a rank out of range of its reviewer ranking', () => {
  it('is skipped with file:7 and its reason in the text and the JSON, and the report is the store without that line', async () => {
    const { dir, path, without, session } = await stores();
    const json = await council(['bias-report', '--input', path, '--json', ...window], dir);
    expect(json.code, json.err).toBe(0);
    const document = JSON.parse(json.out) as BiasReportDocument;
    expect(document.input).toMatchObject({ lines: 600, records: 599, kept: 599, skipped: 1 });
    expect(document.input.reasons.invalid_record).toBe(1);
    expect(document.input.firstBadLines).toEqual([
      {
        file: path,
        line: 7,
        reason: 'invalid_record',
        detail: `rank_position 4 but the reviewer ranked 4 answers in session ${session}: ranks are 0-based, 0–3`,
      },
    ]);
    const reference = await council(['bias-report', '--input', without, '--json', ...window], dir);
    expect(JSON.stringify(document.report)).toBe(
      JSON.stringify((JSON.parse(reference.out) as BiasReportDocument).report),
    );

    const text = await council(['bias-report', '--input', path, ...window], dir);
    expect(text.code, text.err).toBe(0);
    expect(`${text.out}${text.err}`).toContain(
      `skipped 1 unreadable line (1 invalid_record); first: ${path}:7 (invalid_record)`,
    );
  }, 60_000);

  it('is skipped alike by --engine duckdb: the same JSON document, timing aside', async () => {
    const { dir, path } = await stores();
    const untimed = (text: string): string => {
      const { generatedAt: _generatedAt, ...rest } = JSON.parse(text) as BiasReportDocument;
      return JSON.stringify(rest);
    };
    const embedded = await council(['bias-report', '--input', path, '--json', ...window], dir);
    const duckdb = await council(['bias-report', '--input', path, '--json', '--engine', 'duckdb', ...window], dir);
    expect(duckdb.code, duckdb.err).toBe(0);
    expect((JSON.parse(duckdb.out) as BiasReportDocument).input.firstBadLines[0]).toMatchObject({
      file: path,
      line: 7,
    });
    expect(untimed(duckdb.out)).toBe(untimed(embedded.out));
  }, 60_000);
});
