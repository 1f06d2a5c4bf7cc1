import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetReadObjects } from 'hyparquet';
import { parquetWriteFile } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { bundleForChildren } from './__fixtures__/child-bundle.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { exportBiasRecords, readBiasRecords } from '@council/bias-store';
import { exportLine as line, exportStoreLines as storeLines } from '@council/bias-store/test';
import { biasParquet } from './bias-parquet.js';

const tempDir = useTempDirs();

function writeStore(dir: string): string {
  const path = join(dir, 'bias_metrics.jsonl');
  writeFileSync(path, `${storeLines.join('\n')}\n`);
  return path;
}

const now = new Date('2026-12-01T00:00:00Z');
const readAll = (inputs: string[]) => readBiasRecords({ parquet: biasParquet, inputs, window: { now } });

describe('exportBiasRecords', () => {
  it('writes one Parquet partition per UTC day that reads back as the same records, and leaves the store as it was', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const before = readFileSync(store);
    const out = join(dir, 'export');
    const result = await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    expect(result.records).toBe(9);
    expect(result.skipped).toBe(2);
    expect(result.reasons).toMatchObject({ invalid_json: 1, unsupported_version: 1 });
    expect(result.timestampsWithoutZone).toBe(2);
    expect(result.partitions.map((p) => [p.day, p.records])).toEqual([
      ['2026-11-01', 4],
      ['2026-11-02', 2],
      ['2026-11-03', 3],
    ]);
    expect(readdirSync(out).sort()).toEqual(['day=2026-11-01', 'day=2026-11-02', 'day=2026-11-03']);
    expect(readdirSync(join(out, 'day=2026-11-01'))).toEqual(['part-0.parquet']);
    expect(readFileSync(store).equals(before)).toBe(true);

    const rows = await parquetReadObjects({
      file: new Uint8Array(readFileSync(join(out, 'day=2026-11-01', 'part-0.parquet'))).buffer,
    });
    expect(rows.map((r) => r['session_id'] as string)).toEqual(['s1', 's1', 's2', 's3']);
    const v1 = rows[2]!;
    expect(v1).toMatchObject({
      schema_version: '1',
      consent_level: null,
      query_category: null,
      rank_position: null,
      position_is_display_order: false,
      score_value: 4.5,
    });
    expect((v1['timestamp'] as Date).toISOString()).toBe('2026-11-01T23:30:00.000Z');
    expect((rows[3]!['timestamp'] as Date).toISOString()).toBe('2026-11-01T23:10:00.000Z');
    expect(rows[1]).toMatchObject({
      score_value: null,
      rank_position: 0,
      position_is_display_order: true,
      query_category: 'coding',
      query_token_count_bucket: '0-100',
      query_language: 'en',
    });

    // What a report reads from the export is what it reads from the store (the zone-less times aside, now UTC instants).
    const fromStore = await readAll([store]);
    const fromExport = await readAll([out]);
    expect(fromExport.records).toBe(fromStore.records);
    expect(fromExport.sessions).toBe(6);
    expect(fromExport.positionNotDisplayOrder).toBe(1);
    expect(fromExport.timestampsWithoutZone).toBe(0);
    expect(fromStore.timestampsWithoutZone).toBe(2);
    for (const key of [
      'session',
      'reviewer',
      'candidate',
      'position',
      'responseLengthChars',
      'score',
      'rankPosition',
      'time',
      'configVersion',
      'queryCategory',
      'positionIsDisplayOrder',
      'sessionIds',
      'models',
    ] as const) {
      expect(Array.from(fromExport.columns[key] as ArrayLike<unknown>), key).toEqual(
        Array.from(fromStore.columns[key] as ArrayLike<unknown>),
      );
    }
  });

  it('replaces a partition whole on a re-run (byte for byte the same), and leaves days it does not hold alone', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    const first = readFileSync(join(out, 'day=2026-11-02', 'part-0.parquet'));
    writeFileSync(join(out, 'day=2026-11-02', 'part-0.parquet'), 'PAR1 half a file');
    mkdirSync(join(out, 'day=2026-10-01'));
    writeFileSync(join(out, 'day=2026-10-01', 'part-0.parquet'), 'an older export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    expect(readFileSync(join(out, 'day=2026-11-02', 'part-0.parquet')).equals(first)).toBe(true);
    expect(readFileSync(join(out, 'day=2026-10-01', 'part-0.parquet'), 'utf8')).toBe('an older export');
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('splits a day into row groups of the size asked, with every row kept', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet', rowGroupRows: 3 });
    const { parquetMetadata } = await import('hyparquet');
    const bytes = readFileSync(join(out, 'day=2026-11-01', 'part-0.parquet'));
    const meta = parquetMetadata(new Uint8Array(bytes).buffer);
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([3, 1]);
    expect((await readAll([out])).records).toBe(9);
  });

  it('refuses a Parquet input, an output that is a file, and a bad row group size, with what to do', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    await expect(
      exportBiasRecords({ parquet: biasParquet, inputs: [out], output: join(dir, 'again'), format: 'parquet' }),
    ).rejects.toThrow(/is a Parquet file: export reads JSONL bias stores/);
    await expect(
      exportBiasRecords({ parquet: biasParquet, inputs: [store], output: store, format: 'parquet' }),
    ).rejects.toThrow(/is a file: give a directory/);
    await expect(
      exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet', rowGroupRows: 0 }),
    ).rejects.toThrow(/rowGroupRows must be a positive whole number/);
  });
});

describe('reading Parquet bias records', () => {
  it('reads a Parquet file by its magic when it is not named .parquet', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    const renamed = join(dir, 'day3.bin');
    copyFileSync(join(out, 'day=2026-11-03', 'part-0.parquet'), renamed);
    const read = await readAll([renamed]);
    expect(read.records).toBe(3);
    expect(read.columns.sessionIds).toEqual(['s5', 's6']);
  });

  it('counts a damaged Parquet file as a corrupt segment and reads the rest', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    const file = join(out, 'day=2026-11-02', 'part-0.parquet');
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 12)); // the footer cut off
    const read = await readAll([out]);
    expect(read.records).toBe(7);
    expect(read.reasons.corrupt_segment).toBe(1);
    expect(read.firstBadLines[0]).toMatchObject({ file, reason: 'corrupt_segment' });
  });

  it('refuses a Parquet file without the bias columns, naming the column', async () => {
    const dir = tempDir();
    const file = join(dir, 'other.parquet');
    parquetWriteFile({ filename: file, columnData: [{ name: 'session_id', data: ['a'], type: 'STRING' }] });
    await expect(readAll([file])).rejects.toThrow(
      /other\.parquet is a Parquet file but not one of bias records: it has no column schema_version/,
    );
  });

  it("skips and counts rows that are no bias records, by the JSONL reader's rules", async () => {
    const dir = tempDir();
    const file = join(dir, 'rows.parquet');
    const { biasParquetSchema, biasParquetColumns } = await import('./bias-parquet-schema.js');
    const rows = [
      ['1.1.0', 's1', 1_700_000_000_000, 'r', 'm', 0, 10, 5, 0, true],
      ['2.0.0', 's2', 1_700_000_000_000, 'r', 'm', 0, 10, 5, 0, true],
      ['1.1.0', '', 1_700_000_000_000, 'r', 'm', 0, 10, 5, 0, true],
      ['1.1.0', 's3', 1_700_000_000_000, 'r', 'm', 4_294_967_295, 10, 5, 0, true],
      ['1.1.0', 's4', 1_700_000_000_000, 'r', 'm', 1, 10, Number.NaN, 0, true],
    ];
    const pick = [
      'schema_version',
      'session_id',
      'timestamp',
      'reviewer_id',
      'model_id',
      'position',
      'response_length_chars',
      'score_value',
      'rank_position',
      'position_is_display_order',
    ];
    const columnData = biasParquetColumns.map((c) => {
      const at = pick.indexOf(c.name);
      return { name: c.name, data: rows.map((r) => (at === -1 ? null : r[at])) };
    });
    parquetWriteFile({ filename: file, columnData, schema: biasParquetSchema() });
    const read = await readAll([file]);
    expect(read.records).toBe(1);
    expect(read.lines).toBe(5);
    expect(read.reasons).toMatchObject({ unsupported_version: 1, invalid_record: 3 });
    expect(read.firstBadLines.map((b) => b.line)).toEqual([2, 3, 4, 5]);
  });
});

describe('an export killed part-way', () => {
  it('leaves no partial partition file, and the next export completes every partition', async () => {
    const dir = tempDir();
    // 40 days × 300 sessions × 5 records, in row groups of 50 so each partition takes a while to write.
    const lines: string[] = [];
    for (let d = 0; d < 40; d++) {
      for (let s = 0; s < 300; s++) {
        const timestamp = new Date(Date.UTC(2026, 9, 1 + d, 0, s)).toISOString();
        for (let r = 0; r < 5; r++)
          lines.push(
            line({
              session_id: `d${d}-s${s}`,
              timestamp,
              reviewer_id: `r/${r}`,
              position: r,
              score_value: (s + r) % 10,
            }),
          );
      }
    }
    const store = join(dir, 'bias_metrics.jsonl');
    writeFileSync(store, `${lines.join('\n')}\n`);
    const out = join(dir, 'export');
    const childDir = await bundleForChildren(
      {
        'export.mjs': `import { biasParquet, exportBiasRecords } from './bias-store.mjs';\nawait exportBiasRecords({ parquet: biasParquet, inputs: [process.argv[2]], output: process.argv[3], format: 'parquet', rowGroupRows: 50 });\n`,
      },
      { entry: fileURLToPath(new URL('./__fixtures__/child-entry.ts', import.meta.url)) },
    );
    const child = spawn(process.execPath, [join(childDir, 'export.mjs'), store, out], { stdio: 'ignore' });
    let childExited = false;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        childExited = true;
        resolve();
      }),
    );
    // Kill it while it writes a partition, once at least one is in place.
    const staging = (): string | undefined =>
      existsSync(out) ? readdirSync(out).find((n) => n.startsWith('.export-')) : undefined;
    for (;;) {
      const stage = staging();
      const done = existsSync(out) ? readdirSync(out).filter((n) => n.startsWith('day=')).length : 0;
      if (stage !== undefined && done >= 2 && readdirSync(join(out, stage)).some((n) => n.endsWith('.parquet.partial')))
        break;
      if (childExited) throw new Error('the export ended before a partition was seen in progress');
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    await exited;
    const written = readdirSync(out).filter((n) => n.startsWith('day='));
    expect(written.length).toBeGreaterThanOrEqual(2);
    expect(written.length).toBeLessThan(40);
    // Every partition in place is whole: 1,500 records of its day.
    for (const name of written) {
      const read = await readAll([join(out, name)]);
      expect(read.records, name).toBe(1500);
      expect(read.skipped, name).toBe(0);
    }
    expect(staging()).toBeDefined(); // what the kill left, beside (never in) the partitions

    const again = await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    expect(again.removedStaging).toBe(1);
    expect(again.partitions).toHaveLength(40);
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
    const all = await readAll([out]);
    expect(all.records).toBe(60_000);
    expect(all.sessions).toBe(12_000);
    expect(all.skipped).toBe(0);
  }, 120_000);
});
