import { getHeapStatistics } from 'node:v8';
import { BiasStoreError } from './bias-store-error.js';

/**
 * Heap one record's share of its session's summary takes once parsed: 6.1 KB for a 20-record session of a 5-member
 * council (measured by `pnpm bench team-scale`: 627 MB of retained heap for 100,000 sessions), rounded up.
 */
export const SUMMARY_HEAP_BYTES_PER_RECORD = 320;

const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/**
 * Refuses, before an engine's summaries are fetched, a window whose summaries would not fit in this process's heap:
 * without it the process dies in JSON.parse after the engine's whole map (689 s at 1,000,000 sessions), with V8's
 * fatal error instead of a message. `records`: the window's records; `heapLimit` defaults to V8's.
 */
export function assertEngineSummariesFit(spec: { engine: 'duckdb' | 'clickhouse'; records: number; heapLimit?: number }): void {
  const limit = spec.heapLimit ?? getHeapStatistics().heap_size_limit;
  const need = spec.records * SUMMARY_HEAP_BYTES_PER_RECORD;
  if (need <= 0.8 * limit) return;
  throw new BiasStoreError({
    code: 'TOO_LARGE',
    message:
      `The ${spec.engine} engine hands Council one summary per session: about ${gib(need)} for the window's ${spec.records.toLocaleString('en-US')} records, ` +
      `more than this process's ${gib(limit)} heap holds. Leave out --engine (the embedded report reads the same inputs in far less memory), ` +
      `narrow the window (--sessions, --days), or give Node more heap (NODE_OPTIONS=--max-old-space-size=<MiB>).`,
  });
}
