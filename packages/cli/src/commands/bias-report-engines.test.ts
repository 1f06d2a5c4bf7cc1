import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BiasObservation } from '@council/bias-audit';
import { createSeededSfc32 } from '@council/bias-audit';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import type { ClickhouseTestServer } from '@council/bias-engines/test';
import { startClickhouseTestServer } from '@council/bias-engines/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import type { BiasReportDocument } from './bias-report-command.js';

/**
 * Sessions as teams produce them, with everything that makes sums round differently when added in another order:
 * fractional scores, a harsh reviewer, lengths that differ, self-review, unscored-but-ranked records, a reviewer
 * that only ranks in some sessions, two config versions, and members first met out of name order.
 */
function teamObservations(sessions: number): BiasObservation[] {
  const random = createSeededSfc32(18);
  const next = (): number => random.next();
  const members = ['z/last', 'a/first', 'm/middle', 'b/second', 'q/harsh'];
  const out: BiasObservation[] = [];
  for (let s = 0; s < sessions; s++) {
    const timestamp = new Date(Date.parse('2026-10-01T00:00:00Z') + s * 1_800_000).toISOString();
    const lengths = members.map(() => 300 + Math.floor(next() * 2400));
    const quality = members.map(() => next() * 3);
    for (const [r, reviewer] of members.entries()) {
      const order = members.map((_, k) => k).sort(() => next() - 0.5);
      const rankOnly = reviewer === 'b/second' && s % 7 === 3;
      const scores = members.map(
        (_, k) =>
          Math.round((4 + quality[k]! + lengths[k]! / 1000 - (reviewer === 'q/harsh' ? 1.5 : 0) + next() * 2) * 4) / 4,
      );
      const ranking = members.map((_, k) => k).sort((x, y) => scores[y]! - scores[x]!);
      for (const [position, k] of order.entries()) {
        out.push({
          sessionId: `team-${String(s).padStart(5, '0')}`,
          timestamp,
          reviewer,
          candidate: members[k]!,
          position,
          responseLengthChars: lengths[k]!,
          score: rankOnly || (s + r + k) % 11 === 5 ? null : scores[k]!,
          rankPosition: ranking.indexOf(k),
          configVersion: s < (sessions * 2) / 3 ? '1.0.0' : '1.1.0',
          queryCategory: 'coding',
        });
      }
    }
  }
  return out;
}

/** A store of `sessions` team sessions, plus what a real store gathers: a repeated line, a conflicting record, bad lines. */
async function teamStore(sessions: number): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'council-engines-'));
  const path = join(dir, 'bias_metrics.jsonl');
  await createBiasStore({ path }).append(
    recordsFromObservations(teamObservations(sessions), { consent: 1, hashSecret: null, query: null }),
  );
  const lines = readFileSync(path, 'utf8').split('\n');
  const conflicting = JSON.parse(lines[7]!) as Record<string, unknown>;
  appendFileSync(
    path,
    `${lines[3]}\n{"not json\n${JSON.stringify({ ...conflicting, score_value: 1 })}\n${JSON.stringify({ ...conflicting, schema_version: '2.0.0' })}\n{"schema_version":"1.1.0"}\n`,
  );
  return { dir, path };
}

async function council(argv: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out(), err: c.err() };
}

const NOW = ['--now', '2027-01-01T00:00:00Z'];

/** The JSON report without its one timing field. */
function untimed(text: string): string {
  const { generatedAt: _generatedAt, ...rest } = JSON.parse(text) as BiasReportDocument;
  return JSON.stringify(rest, null, 2);
}

describe('council bias-report --engine duckdb', () => {
  it('gives the embedded report byte for byte (timing aside): records, skipped lines, repeats and every figure', async () => {
    const { dir, path } = await teamStore(150);
    for (const window of [
      ['--sessions', '1000', '--days', '1000'],
      ['--sessions', '60', '--days', '1000'],
      ['--sessions', '1000', '--days', '1000', '--config-version', '1.1.0'],
      ['--sessions', '1000', '--days', '1000', '--model', 'q/harsh'],
    ]) {
      const embedded = await council(['bias-report', '--input', path, '--json', ...NOW, ...window], dir);
      const duckdb = await council(
        ['bias-report', '--input', path, '--json', '--engine', 'duckdb', ...NOW, ...window],
        dir,
      );
      expect(embedded.code, embedded.err).toBe(0);
      expect(duckdb.code, duckdb.err).toBe(0);
      const document = JSON.parse(embedded.out) as BiasReportDocument;
      // The store really has what the comparison is about: skipped lines, a repeat, a conflict, figures.
      expect(document.input.skipped, window.join(' ')).toBe(3);
      expect(document.report.window.sessions).toBeGreaterThan(0);
      expect(untimed(duckdb.out), window.join(' ')).toBe(untimed(embedded.out));
      expect(duckdb.err).toBe(embedded.err);
    }
  }, 120_000);

  it("reads a Parquet export as the embedded reader does, and its report is the store's", async () => {
    const { dir, path } = await teamStore(120);
    const out = join(dir, 'export');
    expect(
      (await council(['store', 'export', '--format', 'parquet', '--output', out, '--input', path], dir)).code,
    ).toBe(0);
    const window = ['--sessions', '1000', '--days', '1000', '--json', ...NOW];
    const fromStore = await council(['bias-report', '--input', path, ...window], dir);
    const embedded = await council(['bias-report', '--input', out, ...window], dir);
    const duckdb = await council(['bias-report', '--input', out, '--engine', 'duckdb', ...window], dir);
    expect(duckdb.code, duckdb.err).toBe(0);
    expect(untimed(duckdb.out)).toBe(untimed(embedded.out));
    expect(JSON.stringify((JSON.parse(duckdb.out) as BiasReportDocument).report)).toBe(
      JSON.stringify((JSON.parse(fromStore.out) as BiasReportDocument).report),
    );
  }, 120_000);

  it("draws the HTML page from the engine's records: the same charts, the length chart's points included", async () => {
    const { dir, path } = await teamStore(40);
    const args = ['bias-report', '--input', path, '--format', 'html', '--sessions', '1000', '--days', '1000', ...NOW];
    const embedded = await council(args, dir);
    const duckdb = await council([...args, '--engine', 'duckdb'], dir);
    expect(duckdb.code, duckdb.err).toBe(0);
    const circles = (html: string): number => html.split('<circle').length - 1;
    // 40 sessions × 5 scored answers in the length chart alone, beside the other charts' dots.
    expect(circles(embedded.out)).toBeGreaterThan(200);
    // The same records: the same page, byte for byte, but for when it was made.
    const untimedPage = (html: string): string => html.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, 'TIME');
    expect(untimedPage(duckdb.out)).toBe(untimedPage(embedded.out));
  }, 60_000);
});

describe('council bias-report --engine clickhouse (a real server on 127.0.0.1)', () => {
  let server: ClickhouseTestServer;
  beforeAll(async () => {
    server = await startClickhouseTestServer();
  }, 60_000);
  afterAll(async () => {
    await server.stop();
  });

  it('creates the table, loads the store (twice: idempotent), and reports what the embedded reader reports', async () => {
    const { dir, path } = await teamStore(150);
    const init = await council(
      ['store', 'clickhouse-init', '--url', server.url, '--table', 'team.bias', '--json'],
      dir,
    );
    expect(init.code, init.err).toBe(0);
    expect(JSON.parse(init.out)).toMatchObject({ table: 'team.bias', created: true });
    expect(
      JSON.parse(
        (await council(['store', 'clickhouse-init', '--url', server.url, '--table', 'team.bias', '--json'], dir)).out,
      ),
    ).toMatchObject({ created: false });
    for (const round of [1, 2]) {
      const load = await council(
        [
          'store',
          'export',
          '--to',
          'clickhouse',
          '--url',
          server.url,
          '--table',
          'team.bias',
          '--input',
          path,
          '--batch-rows',
          '1000',
          '--json',
        ],
        dir,
      );
      expect(load.code, load.err).toBe(0);
      // 150 sessions × 25 records + a repeated line and a conflicting record; 3 lines are not records.
      expect(JSON.parse(load.out), `round ${round}`).toMatchObject({
        records: 3752,
        inserted: 3751,
        duplicates: 1,
        skipped: 3,
        batches: 4,
      });
    }
    for (const window of [
      ['--sessions', '1000', '--days', '1000'],
      ['--sessions', '60', '--days', '1000'],
      ['--sessions', '1000', '--days', '1000', '--config-version', '1.1.0'],
      ['--sessions', '1000', '--days', '1000', '--model', 'q/harsh'],
    ]) {
      const embedded = JSON.parse(
        (await council(['bias-report', '--input', path, '--json', ...NOW, ...window], dir)).out,
      ) as BiasReportDocument;
      const r = await council(
        [
          'bias-report',
          '--engine',
          'clickhouse',
          '--url',
          server.url,
          '--table',
          'team.bias',
          '--json',
          ...NOW,
          ...window,
        ],
        dir,
      );
      expect(r.code, r.err).toBe(0);
      const clickhouse = JSON.parse(r.out) as BiasReportDocument;
      expect(JSON.stringify(clickhouse.report, null, 2), window.join(' ')).toBe(
        JSON.stringify(embedded.report, null, 2),
      );
      expect(clickhouse.options).toEqual(embedded.options);
      // A table holds records, not lines: the repeated line was loaded once, the unreadable ones never. So the table
      // has one record fewer, which the embedded reader counted as a duplicate in the window, or as left out by it.
      const { records, kept, outsideWindow, conflicts, duplicates } = embedded.input;
      expect(clickhouse.input).toMatchObject({
        path: server.url,
        records: records - 1,
        kept,
        conflicts,
        duplicates: 0,
        skipped: 0,
        outsideWindow: outsideWindow - (1 - duplicates),
      });
      for (const [why, n] of Object.entries(clickhouse.input.excluded))
        expect(n, why).toBeLessThanOrEqual(embedded.input.excluded[why as keyof typeof embedded.input.excluded]);
    }
  }, 300_000);

  it('says what is wrong when the server or the table is not there', async () => {
    const missing = await council(
      ['bias-report', '--engine', 'clickhouse', '--url', server.url, '--table', 'nowhere.none', '--json'],
      tmpdir(),
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nowhere/);
    expect(missing.err).toMatch(/clickhouse-init/);
    const closed = await council(['store', 'clickhouse-init', '--url', 'http://user:secret-pw@127.0.0.1:1'], tmpdir());
    expect(closed.code).toBe(1);
    expect(closed.err).toMatch(/127\.0\.0\.1:1/);
    expect(closed.err).not.toContain('secret-pw');
  }, 60_000);
});

describe('council bias-report --engine: usage', () => {
  const dir = tmpdir();
  it.each([
    [['--engine', 'clickhouse'], /--engine clickhouse needs --url, the HTTP interface of the ClickHouse server/],
    [
      ['--engine', 'clickhouse', '--url', 'http://127.0.0.1:1', '--input', 'x.jsonl'],
      /reads the records from the server's table, not --input/,
    ],
    [['--url', 'http://127.0.0.1:8123'], /--url is for --engine clickhouse\./],
    [['--engine', 'duckdb', '--table', 't'], /--table is for --engine clickhouse \(this report runs on duckdb\)/],
    [['--engine', 'clickhouse', '--url', 'ftp://127.0.0.1'], /--url expects an http:\/\/ or https:\/\/ URL/],
    [
      ['--engine', 'clickhouse', '--url', 'not a url'],
      /--url expects the http\(s\) URL of a ClickHouse server's HTTP interface/,
    ],
    [['--engine', 'spark'], /--engine/],
  ])('%j is refused with a message saying what to give', async (args, message) => {
    const r = await council(['bias-report', ...args], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
