import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { plantedObservations } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';
import type { StoreExportDocument } from './store-command.js';

/** 40 sessions an hour apart from 2026-11-01T00:00Z, 20 records each: 24 sessions on 1 November, 16 on the 2nd. */
async function homeWithStore(): Promise<{ home: string; path: string }> {
  const home = mkdtempSync(join(tmpdir(), 'council-export-'));
  const path = join(home, 'bias_metrics.jsonl');
  const observations = plantedObservations({ sessions: 40, reviewers: ['r/1', 'r/2', 'r/3', 'r/4', 'r/5'] });
  await createBiasStore({ path }).append(
    recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null }),
  );
  return { home, path };
}

async function council(argv: string[]) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: {}, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

const window = ['--sessions', '1000', '--days', '1000', '--now', '2026-12-01T00:00:00Z', '--format', 'json'];

/** The report without what names its source or its time. */
function withoutSource(doc: BiasReportDocument): unknown {
  const { generatedAt: _generatedAt, input, ...rest } = doc;
  const { path: _path, paths: _paths, files: _files, ...counts } = input;
  return { ...rest, input: counts };
}

describe('council store export', () => {
  it("writes the default store as Parquet partitions by UTC day, and bias-report over them is the store's report", async () => {
    const { home, path } = await homeWithStore();
    const before = readFileSync(path);
    const out = join(home, 'export');
    const run = await council(['store', 'export', '--format', 'parquet', '--output', out, '--home', home, '--json']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.out) as StoreExportDocument;
    expect(doc).toMatchObject({
      kind: 'council-store-export',
      format: 'parquet',
      output: out,
      inputs: [path],
      records: 800,
      skipped: 0,
    });
    expect(doc.partitions.map((p) => [p.day, p.records, p.path])).toEqual([
      ['2026-11-01', 480, join(out, 'day=2026-11-01', 'part-0.parquet')],
      ['2026-11-02', 320, join(out, 'day=2026-11-02', 'part-0.parquet')],
    ]);
    expect(readFileSync(path).equals(before)).toBe(true);

    const fromStore = await council(['bias-report', '--input', path, ...window]);
    const fromParquet = await council(['bias-report', '--input', out, ...window]);
    expect(fromParquet.code).toBe(0);
    const a = JSON.parse(fromStore.out) as BiasReportDocument;
    const b = JSON.parse(fromParquet.out) as BiasReportDocument;
    expect(b.input.files).toBe(2);
    expect(b.input.kept).toBe(800);
    expect(withoutSource(b)).toEqual(withoutSource(a));

    // A glob over the partition's files reads the same as its directory.
    const day2 = await council(['bias-report', '--input', join(out, 'day=2026-11-02', '*.parquet'), ...window]);
    expect((JSON.parse(day2.out) as BiasReportDocument).input.records).toBe(320);
  });

  it('writes canonical JSONL partitions with the same report, and prints a summary line', async () => {
    const { home, path } = await homeWithStore();
    const out = join(home, 'export-jsonl');
    const run = await council(['store', 'export', '--format', 'jsonl', '--output', out, '--input', path]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      new RegExp(
        `^Exported 800 records from 1 file as JSONL into ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 2 partitions, day=2026-11-01 … day=2026-11-02, [\\d.]+ KiB, in [\\d.]+ s`,
      ),
    );
    expect(run.out).toContain(`council bias-report --input ${out}`);
    expect(readdirSync(join(out, 'day=2026-11-01'))).toEqual(['part-0.jsonl']);
    const a = JSON.parse((await council(['bias-report', '--input', path, ...window])).out) as BiasReportDocument;
    const b = JSON.parse((await council(['bias-report', '--input', out, ...window])).out) as BiasReportDocument;
    expect(withoutSource(b)).toEqual(withoutSource(a));
  });

  it('says what is missing or wrong, as usage errors', async () => {
    const { home } = await homeWithStore();
    const noFormat = await council(['store', 'export', '--output', join(home, 'x'), '--home', home]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.err).toContain('council store export needs --format parquet or --format jsonl.');
    const noOutput = await council(['store', 'export', '--format', 'parquet', '--home', home]);
    expect(noOutput.err).toContain('council store export needs --output DIR');
    const badFormat = await council([
      'store',
      'export',
      '--format',
      'csv',
      '--output',
      join(home, 'x'),
      '--home',
      home,
    ]);
    expect(badFormat.err).toContain('--format must be one of parquet, jsonl, got "csv".');
    const wrongAction = await council(['store', 'stats', '--format', 'parquet', '--home', home]);
    expect(wrongAction.code).toBe(2);
    expect(wrongAction.err).toContain('--format is an option of council store export, not of store stats.');
    const empty = mkdtempSync(join(tmpdir(), 'council-export-empty-'));
    const none = await council([
      'store',
      'export',
      '--format',
      'parquet',
      '--output',
      join(empty, 'x'),
      '--home',
      empty,
    ]);
    expect(none.code).not.toBe(0);
    expect(none.err).toContain(`No bias records yet at ${join(empty, 'bias_metrics.jsonl')}`);
  });
});
