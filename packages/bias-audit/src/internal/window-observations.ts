import { BiasAuditError } from '../bias-audit-error.js';
import type { BiasColumns } from '../bias-columns.js';
import type { BiasObservation } from '../bias-observation.js';
import type { BiasWindow } from '../bias-window.js';
import { orderSessionsByStart } from '../bias-window.js';
import { observationsToColumns } from '../observations-to-columns.js';

/** The largest display position accepted: no council shows a reviewer 65,536 answers. */
export const MAX_POSITION = 65_535;

/** What the window of `aggregateBiasAudit` keeps of a list of observations, and what it left out. */
export interface WindowedObservations {
  columns: BiasColumns;
  excluded: { filteredOut: number; outsideWindow: number; beyondMaxSessions: number };
}

function validateObservation(o: BiasObservation, i: number, parsed: Map<string, number>): number {
  const fail = (what: string): never => {
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message: `observations[${i}] (session ${String(o?.sessionId)}): ${what}. Fix or drop that record before aggregating.`,
    });
  };
  if (typeof o !== 'object' || o === null) fail('is not an object');
  if (typeof o.sessionId !== 'string' || o.sessionId === '') fail('sessionId must be a non-empty string');
  if (typeof o.reviewer !== 'string' || o.reviewer === '') fail('reviewer must be a non-empty string');
  if (typeof o.candidate !== 'string' || o.candidate === '') fail('candidate must be a non-empty string');
  let time = typeof o.timestamp === 'string' ? parsed.get(o.timestamp) : Number.NaN;
  if (time === undefined) {
    time = Date.parse(o.timestamp);
    parsed.set(o.timestamp, time);
  }
  if (Number.isNaN(time)) fail(`timestamp ${JSON.stringify(o.timestamp)} is not an ISO 8601 date`);
  if (!Number.isInteger(o.position) || o.position < 0 || o.position > MAX_POSITION)
    fail(`position ${String(o.position)} must be a 0-based integer of at most ${MAX_POSITION}`);
  if (!Number.isInteger(o.responseLengthChars) || o.responseLengthChars < 0)
    fail(`responseLengthChars ${String(o.responseLengthChars)} must be a non-negative integer`);
  if (o.score !== null && (typeof o.score !== 'number' || !Number.isFinite(o.score)))
    fail(`score ${String(o.score)} must be a finite number or null`);
  if (o.rankPosition !== null && (!Number.isInteger(o.rankPosition) || o.rankPosition < 0))
    fail(`rankPosition ${String(o.rankPosition)} must be a 0-based integer or null`);
  return time;
}

/** Throws INVALID_INPUT when a record of `columns` has a display position beyond `MAX_POSITION`. */
export function assertColumnPositions(columns: BiasColumns): void {
  const { position } = columns;
  for (let i = 0; i < columns.length; i++) {
    if (position[i]! <= MAX_POSITION) continue;
    // The record's session: the last whose records start at or before it (columns may come without `session`).
    let s = 0;
    while (columns.sessionStart[s + 1]! <= i) s++;
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message: `A record of session ${columns.sessionIds[s]!} has display position ${columns.position[i]!}, beyond ${MAX_POSITION}: no council shows a reviewer that many answers. Fix or drop that record before aggregating.`,
    });
  }
}

/**
 * Validates observations and keeps the window: the filters (config version, model, query category), then
 * `window.earliestMs` to `window.nowMs`, then the `window.sessions` most recent sessions (by their earliest
 * observation, ties by id) — the rule every reader of records applies.
 */
export function windowObservations(observations: readonly BiasObservation[], window: BiasWindow): WindowedObservations {
  const parsed = new Map<string, number>();
  const earliest = window.earliestMs;
  let filteredOut = 0;
  let outsideWindow = 0;
  const kept: BiasObservation[] = [];
  const sessionTime = new Map<string, number>();
  observations.forEach((o, i) => {
    const time = validateObservation(o, i, parsed);
    if (
      (window.configVersion !== undefined && o.configVersion !== window.configVersion) ||
      (window.model !== undefined && o.reviewer !== window.model && o.candidate !== window.model) ||
      (window.queryCategory !== undefined && o.queryCategory !== window.queryCategory)
    ) {
      filteredOut++;
      return;
    }
    if (time > window.nowMs || time < earliest) {
      outsideWindow++;
      return;
    }
    kept.push(o);
    const first = sessionTime.get(o.sessionId);
    if (first === undefined || time < first) sessionTime.set(o.sessionId, time);
  });
  let beyondMaxSessions = 0;
  let windowed = kept;
  if (sessionTime.size > window.sessions) {
    const ids = [...sessionTime.keys()];
    const newest = orderSessionsByStart(Array.from(ids.keys()), [...sessionTime.values()], ids).slice(
      sessionTime.size - window.sessions,
    );
    const keep = new Set(newest.map((s) => ids[s]!));
    windowed = kept.filter((o) => keep.has(o.sessionId));
    beyondMaxSessions = kept.length - windowed.length;
  }
  return { columns: observationsToColumns(windowed), excluded: { filteredOut, outsideWindow, beyondMaxSessions } };
}
