import type { BiasColumns } from '@council/bias-audit';
import type { BiasRecordColumns } from './bias-record-columns.js';
import type { OmittedRecordFields, RepeatedRecords } from './drop-repeated-records.js';
import { dropRepeatedRecords } from './drop-repeated-records.js';
import type { OutOfRangeRanks } from './drop-out-of-range-ranks.js';
import { dropOutOfRangeRanks } from './drop-out-of-range-ranks.js';

/** The window's records once repeats are dropped, and what the reader says about them. */
export interface SettledWindowRecords<C extends BiasColumns = BiasRecordColumns> {
  columns: C;
  repeated: RepeatedRecords;
  /**
   * Records dropped for a rank out of their reviewer's ranking in the session (`dropOutOfRangeRanks`): invalid records,
   * which the reader adds to its skip report with their file and line (`locateRecordLines`).
   */
  outOfRangeRanks: OutOfRangeRanks;
  /** Kept records whose `position` may be a rank (older writers). */
  positionNotDisplayOrder: number;
  /** Kept records with a simulated member (`simulated:…`). */
  simulatedRecords: number;
  /** The reader's warnings: zone-less timestamps, conflicting records. */
  warnings: string[];
}

/**
 * The last step of every read of a window (the reader's, and an engine's): `columns` holds the window's records, by
 * session in window order, each session's in read order, repeats included. Keeps the first record of each (session,
 * reviewer, reviewed member), counts the rest, drops the records whose rank is out of range of their reviewer's
 * ranking of the session (`dropOutOfRangeRanks`: only the grouped window can tell), and words the warnings — so every
 * reader says the same things alike.
 * A report read's columns, without `time`, `queryCategory` and `positionIsDisplayOrder`, come with `omitted`.
 */
export function settleWindowRecords<C extends BiasColumns = BiasRecordColumns>(
  columns: C,
  timestampsWithoutZone: number,
  omitted?: OmittedRecordFields,
): SettledWindowRecords<C> {
  const settled = dropRepeatedRecords(columns, omitted);
  // Ranks are judged once each answer counts once. A dropped record is ranked, so display order (it carries
  // rankPosition): positionNotDisplayOrder is not moved by the drop.
  const { columns: kept, outOfRange: outOfRangeRanks } = dropOutOfRangeRanks(settled.columns);
  let positionNotDisplayOrder = 0;
  let simulatedRecords = 0;
  const simulated = Uint8Array.from(kept.models, (name) => (name.startsWith('simulated:') ? 1 : 0));
  const displayOrder = kept.positionIsDisplayOrder;
  if (displayOrder === undefined) {
    if (omitted === undefined)
      throw new Error(
        'settle-window-records.ts: columns without positionIsDisplayOrder need the omitted fields given.',
      );
    positionNotDisplayOrder = omitted.positionNotDisplayOrder - settled.droppedNotDisplayOrder;
  }
  for (let i = 0; i < kept.length; i++) {
    if (displayOrder !== undefined && displayOrder[i] === 0) positionNotDisplayOrder++;
    if (simulated[kept.reviewer[i]!] === 1 || simulated[kept.candidate[i]!] === 1) simulatedRecords++;
  }
  const { repeated } = settled;
  const warnings: string[] = [];
  if (timestampsWithoutZone > 0)
    warnings.push(
      `${timestampsWithoutZone} record${timestampsWithoutZone === 1 ? '' : 's'} had a timestamp without a zone; read as UTC.`,
    );
  if (repeated.conflicts > 0) {
    warnings.push(
      `${repeated.conflicts} record${repeated.conflicts === 1 ? '' : 's'} disagree with an earlier record of the same session, reviewer and reviewed member (sessions ${repeated.conflictSessions.join(', ')}${repeated.conflicts > repeated.conflictSessions.length ? ', …' : ''}): the first read was kept. Two inputs may hold different councils under one session id.`,
    );
  }
  return { columns: kept, repeated, outOfRangeRanks, positionNotDisplayOrder, simulatedRecords, warnings };
}
