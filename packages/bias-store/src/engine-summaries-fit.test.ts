import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { BiasStoreError } from './bias-store-error.js';
import { assertEngineSummariesFit, SUMMARY_HEAP_BYTES_PER_RECORD } from './engine-summaries-fit.js';

describe('assertEngineSummariesFit', () => {
  // A 400 MiB heap may hold 0.8 × 400 MiB = 335,544,320 bytes of summaries: 1,048,576 records at 320 bytes.
  const heapLimit = 400 * 2 ** 20;
  it('lets a window through while its summaries take at most 80% of the heap', () => {
    expect(SUMMARY_HEAP_BYTES_PER_RECORD).toBe(320);
    expect(() => assertEngineSummariesFit({ engine: 'duckdb', records: 1_048_576, heapLimit })).not.toThrow();
  });

  it('refuses one record more before anything is fetched, saying what to do instead', () => {
    let error: unknown;
    try {
      assertEngineSummariesFit({ engine: 'clickhouse', records: 1_048_577, heapLimit });
    } catch (caught) {
      error = caught;
    }
    expect(BiasStoreError.isInstance(error)).toBe(true);
    const { code, message } = error as BiasStoreError;
    expect(code).toBe('TOO_LARGE');
    // 1,048,577 × 320 bytes = 0.3125 GiB (to 1 decimal: 0.3), the heap 0.390625 GiB (0.4).
    expect(message).toBe(
      "The clickhouse engine hands Council one summary per session: about 0.3 GiB for the window's 1,048,577 records, more than this process's 0.4 GiB heap holds. Leave out --engine (the embedded report reads the same inputs in far less memory), narrow the window (--sessions, --days), or give Node more heap (NODE_OPTIONS=--max-old-space-size=<MiB>).",
    );
  });

  it('uses V8\'s own heap limit by default', () => {
    const fits = Math.floor((0.8 * getHeapStatistics().heap_size_limit) / 320);
    expect(() => assertEngineSummariesFit({ engine: 'duckdb', records: fits })).not.toThrow();
    expect(() => assertEngineSummariesFit({ engine: 'duckdb', records: fits + 1 })).toThrow(/one summary per session/);
  });
});
