import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo, testContext } from '../testing/capture-io.js';
import { plantedObservations } from '../testing/write-bias-records.js';
import { runStoreCommand } from './store-command.js';
import type { StoreCompactDocument, StoreStatsDocument } from './store-command.js';

/** A home whose bias store holds 3 sessions of 20 records (5 reviewers × 4 candidates), an hour apart from 2026-11-01T00:00Z. */
async function homeWithStore(): Promise<{ home: string; path: string }> {
  const home = mkdtempSync(join(tmpdir(), 'council-store-'));
  const path = join(home, 'bias_metrics.jsonl');
  const observations = plantedObservations({ sessions: 3, reviewers: ['r/1', 'r/2', 'r/3', 'r/4', 'r/5'] });
  await createBiasStore({ path }).append(
    recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null }),
  );
  return { home, path };
}

async function council(argv: string[], env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

async function statsOf(home: string): Promise<StoreStatsDocument> {
  const t = testContext({ home });
  expect(await runStoreCommand({ action: 'stats', json: true }, t.ctx)).toBe(0);
  return JSON.parse(t.out()) as StoreStatsDocument;
}

describe('council store stats', () => {
  it('counts records, sessions, bytes and files, and finds the oldest and newest record', async () => {
    const { home, path } = await homeWithStore();
    const size = statSync(path).size;
    const doc = await statsOf(home);
    expect(doc).toMatchObject({
      path,
      exists: true,
      records: 60,
      sessions: 3,
      bytes: size,
      bytesPerSession: Math.round(size / 3),
      oldest: '2026-11-01T00:00:00.000Z',
      newest: '2026-11-01T02:00:00.000Z',
      skipped: 0,
      skippedByReason: {},
      firstBadLines: [],
    });
    expect(doc.files).toMatchObject({ plainSegments: 0, compactedSegments: 0, activeBytes: size });

    const t = testContext({ home });
    await runStoreCommand({ action: 'stats' }, t.ctx);
    expect(t.out()).toMatch(new RegExp(`│ bias store\\s+│ ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+│`));
    expect(t.out()).toMatch(/│ records\s+│ 60\s+│/);
    expect(t.out()).toMatch(/│ sessions\s+│ 3\s+│/);
    expect(t.out()).toMatch(new RegExp(`│ bytes on disk\\s+│ ${size.toLocaleString('en-US')} bytes`));
    expect(t.out()).toContain('council store compact');
  });

  it('reports skipped lines by reason with the first bad line as file:line', async () => {
    const { home, path } = await homeWithStore();
    appendFileSync(path, 'this is not json\n{"schema_version":"1.1.0","torn'); // line 61 invalid, line 62 torn
    const doc = await statsOf(home);
    expect(doc.records).toBe(60);
    expect(doc.skipped).toBe(2);
    expect(doc.skippedByReason).toEqual({ invalid_json: 1, torn_line: 1 });
    expect(doc.firstBadLines[0]).toMatchObject({ file: path, line: 61, reason: 'invalid_json' });
    const t = testContext({ home });
    await runStoreCommand({ action: 'stats' }, t.ctx);
    expect(t.out()).toMatch(/│ skipped lines\s+│ 2: invalid_json 1, torn_line 1/);
    expect(t.out()).toContain(`│ first bad line `);
    expect(t.out()).toContain(`${path}:61 (invalid_json`);
  });

  it('says plainly that a default store does not exist yet, and exits 0', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-store-empty-'));
    const text = await council(['store', 'stats', '--home', home]);
    expect(text).toEqual({
      code: 0,
      out: `No bias records yet at ${join(home, 'bias_metrics.jsonl')}. Bias records are off until you opt in: add \`bias_persistence: true\` to ${join(home, 'config.yaml')} (\`council config init --bias-records\` writes one) or set LLM_COUNCIL_BIAS_PERSISTENCE=true (or try \`council demo\`).\n`,
      err: '',
    });
    const json = await council(['store', 'stats', '--home', home, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      exists: false,
      records: 0,
      sessions: 0,
      bytes: 0,
      bytesPerSession: null,
    });
    expect(json.err).toContain('No bias records yet');
  });
});

describe('council store compact', () => {
  it('closes the active file, gzips it, and the store reads the same records afterwards', async () => {
    const { home, path } = await homeWithStore();
    const original = readFileSync(path);
    const t = testContext({ home });
    expect(await runStoreCommand({ action: 'compact', json: true, minAgeMs: 0 }, t.ctx)).toBe(0);
    const doc = JSON.parse(t.out()) as StoreCompactDocument;
    const gz = join(home, 'bias_metrics.000001.jsonl.gz');
    expect(doc).toMatchObject({
      closedActiveAs: 1,
      compacted: 1,
      compactedBytesBefore: original.length,
      compactedBytesAfter: statSync(gz).size,
      leftPlain: 0,
      bytesBefore: original.length,
      bytesAfter: statSync(gz).size,
      records: 60,
      sessions: 3,
      bytesPerSession: Math.round(statSync(gz).size / 3),
    });
    expect(doc.compactedBytesAfter).toBeLessThan(doc.compactedBytesBefore);
    // The plain data was replaced by a verified gzip of the same bytes; nothing else is left.
    expect(readdirSync(home).sort()).toEqual(['bias_metrics.000001.jsonl.gz']);
    expect(gunzipSync(readFileSync(gz)).equals(original)).toBe(true);
    expect(statSync(gz).mode & 0o777).toBe(0o600);

    const after = await statsOf(home);
    expect(after).toMatchObject({
      records: 60,
      sessions: 3,
      oldest: '2026-11-01T00:00:00.000Z',
      newest: '2026-11-01T02:00:00.000Z',
      skipped: 0,
    });
    expect(after.files).toMatchObject({ plainSegments: 0, compactedSegments: 1, activeBytes: null });

    // The bias report reads a store whose active file is gone (only a gzipped segment left).
    const report = await council(['bias-report', '--input', path, '--format', 'json', '--now', '2026-11-02T00:00:00Z']);
    expect(report.code).toBe(0);
    expect((JSON.parse(report.out) as { input: { records: number } }).input.records).toBe(60);

    // A second run finds nothing to do and says so.
    const again = testContext({ home });
    await runStoreCommand({ action: 'compact', minAgeMs: 0 }, again.ctx);
    expect(again.out()).toContain('Nothing to compact: every closed segment is gzipped already.');
    expect(again.out()).toContain('60 records of 3 sessions');
  });

  it('waits the minimum age after closing the active file, then compacts it', async () => {
    const { home } = await homeWithStore();
    const t = testContext({ home });
    const started = Date.now();
    await runStoreCommand({ action: 'compact', minAgeMs: 300 }, t.ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(t.err()).toContain(
      'Closed the active file as segment 1; waiting 0.3 s in case a running council was writing to it',
    );
    expect(t.out()).toMatch(
      /Closed the active file \(\d+\.\d KiB\) as segment 1\.\nCompacted 1 segment: \d+\.\d KiB → [\d,]+ bytes \(\d+%\)\./,
    );
    expect(readdirSync(home)).toEqual(['bias_metrics.000001.jsonl.gz']);
  });

  it('leaves a segment changed more recently than the minimum age plain, and says so', async () => {
    const { home, path } = await homeWithStore();
    expect(await createBiasStore({ path }).rotate()).toBe(1); // closed just now, as an append-triggered rotation would
    const t = testContext({ home });
    await runStoreCommand({ action: 'compact', minAgeMs: 60_000 }, t.ctx);
    expect(t.out()).toContain('Compacted no segment.');
    expect(t.out()).toContain('1 closed segment left plain: changed less than 60 s ago');
    expect(readdirSync(home)).toEqual(['bias_metrics.000001.jsonl']);
    expect(t.err()).toBe(''); // nothing to close, so no wait
  });

  it('says an absent default store has nothing to compact (exit 0), and refuses a missing --input, a directory or a segment', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-store-empty-'));
    const empty = await council(['store', 'compact', '--home', home]);
    expect(empty.code).toBe(0);
    expect(empty.out).toContain(`No bias records yet at ${join(home, 'bias_metrics.jsonl')}.`);
    expect(empty.out).toContain('Nothing to compact.');
    expect(readdirSync(home)).toEqual([]);

    const missing = join(home, 'nope.jsonl');
    expect(await council(['store', 'compact', '--input', missing])).toEqual({
      code: 1,
      out: '',
      err: `council: No bias store at ${missing}: neither the file nor any segment of it exists. Check --input (the store's .jsonl file).\n`,
    });
    const dir = join(home, 'a-directory');
    mkdirSync(dir);
    const directory = await council(['store', 'stats', '--input', dir]);
    expect(directory.code).toBe(1);
    expect(directory.err).toBe(
      `council: ${dir} is a directory, not a bias store. Give --input the store's active file, e.g. ${join(dir, 'bias_metrics.jsonl')}.\n`,
    );

    const { home: other } = await homeWithStore();
    await createBiasStore({ path: join(other, 'bias_metrics.jsonl') }).compact({ minAgeMs: 0 }); // nothing closed yet: no-op
    await council(['store', 'compact', '--home', other, '--min-age', '0']);
    const segment = await council(['store', 'compact', '--input', join(other, 'bias_metrics.000001.jsonl.gz')]);
    expect(segment.code).toBe(2);
    expect(segment.err).toMatch(
      /^council: \S+bias_metrics\.000001\.jsonl\.gz is a closed segment of a store, not the store itself\./,
    );
    expect(existsSync(join(other, 'bias_metrics.000001.jsonl.gz'))).toBe(true);
  });

  it('treats a lone dated file as a store of its own, not as a segment', async () => {
    const { path } = await homeWithStore();
    const dated = join(mkdtempSync(join(tmpdir(), 'council-store-dated-')), 'logs.20261122.jsonl');
    appendFileSync(dated, readFileSync(path));
    const r = await council(['store', 'stats', '--input', dated, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ records: 60, sessions: 3 });
  });
});

describe('council store (arguments)', () => {
  it('has help with examples, and rejects an unknown action or a bad --min-age as usage errors (exit 2)', async () => {
    const help = await council(['store', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('$ council store [action]');
    expect(help.out).toMatch(/Examples:\n {2}council store stats/);
    expect(help.out).toContain('--min-age <duration>');
    expect(await council(['store', 'shrink'])).toEqual({
      code: 2,
      out: '',
      err: 'council: Unknown store action "shrink": use "council store stats", "council store compact", "council store export" or "council store clickhouse-init".\n',
    });
    const badAge = await council(['store', 'compact', '--min-age', 'soon']);
    expect(badAge.code).toBe(2);
    expect(badAge.err).toContain('--min-age expects a duration');
  });
});
