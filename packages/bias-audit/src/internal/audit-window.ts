import { BiasAuditError } from '../bias-audit-error.js';
import type { BiasColumns } from '../bias-columns.js';
import type { BiasObservation } from '../bias-observation.js';
import type { BiasSessionSummaries } from '../bias-session-summary.js';
import { assertBiasSessionSummaries, looksLikeSessionSummaries } from '../bias-session-summary.js';
import type { BiasWindow, BiasWindowOptions } from '../bias-window.js';
import { DEFAULT_BIAS_WINDOW, parseBiasWindow } from '../bias-window.js';
import type { AuditSessions } from './audit-sessions.js';
import { sessionsFromColumns, sessionsFromSummaries } from './audit-sessions.js';
import type { WindowedObservations } from './window-observations.js';
import { assertColumnPositions, windowObservations } from './window-observations.js';

/** What `aggregateBiasAudit` takes: observations, the columns of a reader, or per-session summaries. */
export type AuditInput = readonly BiasObservation[] | BiasColumns | BiasSessionSummaries;

export function isColumns(input: unknown): input is BiasColumns {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    (input as BiasColumns).sessionStart instanceof Uint32Array
  );
}

export function isSummaries(input: unknown): input is BiasSessionSummaries {
  return !isColumns(input) && looksLikeSessionSummaries(input);
}

/**
 * Step 1 of `aggregateBiasAudit`, the window: observations are validated and windowed here (the one place the
 * statistics window anything); columns and summaries were windowed by their reader and are taken whole. Returns the
 * sessions to report on, what the window left out, and the checked window the report's window block names.
 */
export function auditWindow(
  input: AuditInput,
  given: BiasWindowOptions | undefined,
): { frame: AuditSessions; excluded: WindowedObservations['excluded']; window: BiasWindow } {
  const whole = { filteredOut: 0, outsideWindow: 0, beyondMaxSessions: 0 };
  if (isSummaries(input)) {
    if (given?.model !== undefined || given?.configVersion !== undefined || given?.queryCategory !== undefined) {
      throw new BiasAuditError({
        code: 'INVALID_OPTION',
        message:
          'aggregateBiasAudit: window.model, window.configVersion and window.queryCategory choose records: summaries are taken whole, so summarise the records you want instead (window.sessions and window.days label the window they were chosen by).',
      });
    }
    // Summaries carry no window of their own: unless told which, the report names none.
    const window = parseBiasWindow(given ?? {}, { caller: 'aggregateBiasAudit' });
    assertBiasSessionSummaries(input);
    return { frame: sessionsFromSummaries(input), excluded: whole, window };
  }
  const window = parseBiasWindow(given ?? {}, { defaults: DEFAULT_BIAS_WINDOW, caller: 'aggregateBiasAudit' });
  if (isColumns(input)) {
    assertColumnPositions(input);
    return { frame: sessionsFromColumns(input), excluded: whole, window };
  }
  const windowed = windowObservations(input, window);
  return { frame: sessionsFromColumns(windowed.columns), excluded: windowed.excluded, window };
}
