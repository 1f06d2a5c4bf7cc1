import { safeParseBiasWindow } from '@council/bias-audit';
import { BiasStoreError } from './bias-store-error.js';
import type { ContributionRecord } from './contribution-record.js';
import { createContributionStore } from './create-contribution-store.js';
import type { RepeatedRecords } from './drop-repeated-records.js';
import type { SkipReport } from './skip-report.js';

export interface ReadContributionRecordsOptions {
  /** The store's active file (its closed and compacted segments are read too). */
  path: string;
  /** Keep the last N sessions, by time (bias-audit's window `sessions`: a positive integer, or Infinity). Default: all. */
  sessions?: number;
  /** Keep records at or after this time. Default: all. */
  since?: Date | string;
  /** Leave out records after this time. Default: none left out. */
  until?: Date | string;
  /** Sessions to leave out: those not yet saved whole (`unsavedSessionIds` of the home's journal). */
  leaveOutSessions?: ReadonlySet<string>;
}

export interface ReadContributionRecordsResult extends SkipReport {
  /** The window's records, oldest first, one per (session, member). */
  records: ContributionRecord[];
  /** Sessions among `records`. */
  sessions: number;
  /** Records met again for a (session, member) already read (counted once; the first read is kept). */
  repeated: RepeatedRecords;
  /** Human-readable warnings: zone-less timestamps, conflicting records. */
  warnings: string[];
}

function sameRecord(a: ContributionRecord, b: ContributionRecord): boolean {
  return (Object.keys(a) as (keyof ContributionRecord)[]).every((key) => Object.is(a[key], b[key]));
}

/**
 * Reads the contribution store with a window: every line validated (bad lines skipped and reported with file
 * and line, as the bias store does), then one record per session and member — an identical copy counts as a
 * duplicate, a differing one as a conflict (the first read is kept, and a warning names the session).
 * Throws `BiasStoreError` (`INVALID_OPTION`) for a window it cannot honour. A missing store reads as empty.
 */
export async function readContributionRecords(
  options: ReadContributionRecordsOptions,
): Promise<ReadContributionRecordsResult> {
  if ('maxSessions' in options)
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: 'readContributionRecords: maxSessions is now sessions.',
    });
  // The window's sessions, checked as every window's are; the store keeps the last N (Infinity: all).
  const window = safeParseBiasWindow(options.sessions === undefined ? {} : { sessions: options.sessions }, {
    caller: 'readContributionRecords',
  });
  if (!window.success)
    throw new BiasStoreError({ code: 'INVALID_OPTION', message: window.error.message, cause: window.error });
  const last = window.value.sessions;
  const store = createContributionStore({ path: options.path });
  const read = await store.read({
    ...(Number.isFinite(last) ? { sessions: last } : {}),
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.until === undefined ? {} : { until: options.until }),
  });
  const seen = new Map<string, ContributionRecord>();
  const records: ContributionRecord[] = [];
  const repeated: RepeatedRecords = { duplicates: 0, conflicts: 0, conflictSessions: [] };
  for (const record of read.items) {
    if (options.leaveOutSessions?.has(record.sessionId) === true) continue;
    const key = JSON.stringify([record.sessionId, record.member]);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, record);
      records.push(record);
    } else if (sameRecord(first, record)) {
      repeated.duplicates++;
    } else {
      repeated.conflicts++;
      if (repeated.conflictSessions.length < 5 && !repeated.conflictSessions.includes(record.sessionId))
        repeated.conflictSessions.push(record.sessionId);
    }
  }
  const warnings = [...read.warnings];
  if (repeated.conflicts > 0) {
    warnings.push(
      `${repeated.conflicts} contribution record${repeated.conflicts === 1 ? '' : 's'} disagree with an earlier record of the same session and member (sessions ${repeated.conflictSessions.join(', ')}${repeated.conflicts > repeated.conflictSessions.length ? ', …' : ''}): the first read was kept.`,
    );
  }
  const { skipped, reasons, firstBadLines } = read;
  return {
    records,
    sessions: new Set(records.map((r) => r.sessionId)).size,
    repeated,
    warnings,
    skipped,
    reasons,
    firstBadLines,
  };
}
