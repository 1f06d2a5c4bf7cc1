import { BiasStoreError } from './bias-store-error.js';
import type { ReadBiasRecordsOptions } from './read-bias-records.js';

/**
 * The window and filters an analytics engine applies (`bias-report --engine duckdb|clickhouse`), with
 * `readBiasRecords`' meanings and defaults. An engine returns what `readBiasRecords` returns for the same records:
 * its counts, and the window's records as columns.
 */
export type EngineWindowOptions = Pick<
  ReadBiasRecordsOptions,
  'maxSessions' | 'maxDays' | 'now' | 'model' | 'configVersion'
>;

/** A window's bounds, checked: Infinity where there is none. */
export interface CheckedWindow {
  maxSessions: number;
  maxDays: number;
  /** The window's end, epoch ms. */
  nowMs: number;
  /** `nowMs` less `maxDays` days, or -Infinity. */
  earliestMs: number;
}

const dayMs = 86_400_000;

/**
 * `maxSessions`, `maxDays` and `now` as every reader of a window takes them (the embedded reader and each engine), or
 * `INVALID_OPTION` naming `reader` and the option.
 */
export function checkWindowOptions(
  options: Pick<ReadBiasRecordsOptions, 'maxSessions' | 'maxDays' | 'now'>,
  reader: string,
): CheckedWindow {
  const positive = (value: number | undefined, name: string, integer: boolean): number => {
    if (value === undefined || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    if (typeof value !== 'number' || !(value > 0) || (integer && !Number.isInteger(value))) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `${reader}: ${name} must be a positive ${integer ? 'integer' : 'number'} (or Infinity), got ${String(value)}.`,
      });
    }
    return value;
  };
  const maxSessions = positive(options.maxSessions, 'maxSessions', true);
  const maxDays = positive(options.maxDays, 'maxDays', false);
  const nowMs = (options.now ?? new Date()).getTime();
  if (Number.isNaN(nowMs))
    throw new BiasStoreError({ code: 'INVALID_OPTION', message: `${reader}: now is an invalid Date.` });
  return {
    maxSessions,
    maxDays,
    nowMs,
    earliestMs: maxDays === Number.POSITIVE_INFINITY ? Number.NEGATIVE_INFINITY : nowMs - maxDays * dayMs,
  };
}
