import type { BiasSessionSummaries, BiasWindowOptions } from '@council/bias-audit';
import { aggregateBiasAudit } from '@council/bias-audit';
import { readBiasRecords } from '@council/bias-store';
import type { ReadBiasRecordsResult } from '@council/bias-store';
import { expect } from 'vitest';
import { biasParquet } from '../bias-parquet.js';
import { clickhouseBiasRead } from '../clickhouse/bias-read.js';
import { expectSameColumns } from './expect-same-columns.js';

/** The engine against the reader over the same records: the same columns, the same counts, the same report. */
export async function expectSameAsReader(spec: {
  /** The test server's URL. */
  url: string;
  inputs: string[];
  table: string;
  window: BiasWindowOptions;
}): Promise<{ expected: BiasSessionSummaries; read: ReadBiasRecordsResult }> {
  const read = await readBiasRecords({ parquet: biasParquet, inputs: spec.inputs, window: spec.window });
  // 37 sessions a query: a window cut to 37 sessions or fewer is read by name; 2: ranges of ids that leave out the
  // sessions before the window's oldest.
  const [actual, inPairs] = [
    await clickhouseBiasRead({
      url: spec.url,
      table: spec.table,
      window: spec.window,
      sessionsPerQuery: 37,
    }),
    await clickhouseBiasRead({
      url: spec.url,
      table: spec.table,
      window: spec.window,
      sessionsPerQuery: 2,
    }),
  ];
  const expected = expectSameColumns(actual.columns, read.columns);
  expectSameColumns(inPairs.columns, read.columns);
  expect({ ...inPairs, columns: null }).toEqual({ ...actual, columns: null });
  expect({ ...actual, columns: null }).toEqual({
    ...read,
    columns: null,
    // What the table cannot know: its files (the load read them), the lines the load skipped, zone-less times.
    files: [],
    lines: read.records,
    skipped: 0,
    reasons: Object.fromEntries(Object.keys(read.reasons).map((k) => [k, 0])),
    firstBadLines: [],
    foreignMajors: [],
  });
  const options = {
    window: {
      now: spec.window.now!,
      sessions: spec.window.sessions ?? Number.POSITIVE_INFINITY,
      days: spec.window.days ?? Number.POSITIVE_INFINITY,
    },
    seed: 1,
    resamples: 200,
  };
  expect(JSON.stringify(aggregateBiasAudit(actual.columns, options))).toBe(
    JSON.stringify(aggregateBiasAudit(read.columns, options)),
  );
  return { expected, read };
}
