import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportLine as line, exportStoreLines as storeLines } from './__fixtures__/export-store-lines.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { exportBiasRecords } from './export-bias-records.js';
import { readBiasRecords } from './read-bias-records.js';

const tempDir = useTempDirs();

function writeStore(dir: string): string {
  const path = join(dir, 'bias_metrics.jsonl');
  writeFileSync(path, `${storeLines.join('\n')}\n`);
  return path;
}

const now = new Date('2026-12-01T00:00:00Z');
const readAll = (inputs: string[]) => readBiasRecords({ inputs, window: { now } });

// The Parquet half (partitions, row groups, reading Parquet back, a killed export) is tested in @council/bias-engines.
describe('exportBiasRecords', () => {
  it('writes canonical compact JSONL partitions that read back the same, keeping an old record old', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await exportBiasRecords({ inputs: [store], output: out, format: 'jsonl' });
    const day1 = readFileSync(join(out, 'day=2026-11-01', 'part-0.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(day1).toHaveLength(4);
    // The v1 line: integer version, no rank_position (its presence would make its position display order).
    expect(JSON.parse(day1[2]!)).toEqual({
      schema_version: 1,
      session_id: 's2',
      timestamp: '2026-11-01T23:30:00Z',
      consent_level: null,
      query_metadata: null,
      reviewer_id: 'r/a',
      model_id: 'm/b',
      position: 0,
      response_length_chars: 120,
      score_value: 4.5,
      score_scale: '1-10',
      council_config_version: '1.0.0',
      query_hash: null,
    });
    expect(day1[0]).toBe(
      line({ session_id: 's1', reviewer_id: 'r/a', model_id: 'm/b', position: 0, score_value: 7, rank_position: 1 }),
    );
    const fromStore = await readAll([store]);
    const fromExport = await readAll([out]);
    expect(fromExport.positionNotDisplayOrder).toBe(1);
    expect(Array.from(fromExport.columns.score)).toEqual(Array.from(fromStore.columns.score));
    expect(fromExport.timestampsWithoutZone).toBe(2);
  });

  it('says to install and pass @council/bias-engines for Parquet, which the store neither writes nor reads', async () => {
    const dir = tempDir();
    const store = writeStore(dir);
    const out = join(dir, 'export');
    await expect(exportBiasRecords({ inputs: [store], output: out, format: 'parquet' })).rejects.toThrow(
      "A Parquet export: @council/bias-store reads and writes JSONL only. Install @council/bias-engines and pass its Parquet support: import { biasParquet } from '@council/bias-engines'; exportBiasRecords({ …, format: 'parquet', parquet: biasParquet }).",
    );
    // A file named .parquet, or holding Parquet's magic under another name, is refused before anything is read.
    const named = join(dir, 'part-0.parquet');
    writeFileSync(named, 'PAR1 whatever follows');
    const magic = join(dir, 'exported.bin');
    writeFileSync(magic, 'PAR1 whatever follows');
    for (const file of [named, magic])
      await expect(readAll([store, file])).rejects.toThrow(
        `${file} is a Parquet file: @council/bias-store reads and writes JSONL only. Install @council/bias-engines and pass its Parquet support: import { biasParquet } from '@council/bias-engines'; readBiasRecords({ inputs, parquet: biasParquet }).`,
      );
  });
});
