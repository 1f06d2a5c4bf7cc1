/**
 * The lowest consent level at which each top-level field of a council-cloud event may leave the
 * machine (ADR-018, "Unified Consent Model"): the rankings at 2 (Anonymous), the bias
 * summary and query metadata at 3 (Enhanced), the query hash at 4 (Research). Levels 0 and 1 send nothing.
 */
export const fieldConsentLevel: Readonly<Record<string, number>> = {
  // The envelope discloses nothing by itself (and below level 2 nothing is sent at all).
  schema_version: 0,
  event_id: 0,
  session_id: 0,
  timestamp: 0,
  consent_level: 0,
  rankings: 2,
  bias_indicators: 3,
  query_metadata: 3,
  query_hash: 4,
};

/** The lowest consent level at which anything is sent. */
export const minimumSendLevel = 2;

/**
 * The fields of `event` that its own `consent_level` does not allow: fields present (even as null, as
 * `@council/core`'s schema has it: a field beyond the level is absent) that need a higher level, and
 * fields this uploader does not know (it cannot tell what they would disclose). Empty when the event
 * may be sent as it is.
 */
export function fieldsAboveConsent(event: Readonly<Record<string, unknown>>): { field: string; needs: number | null }[] {
  const level = event.consent_level;
  const found: { field: string; needs: number | null }[] = [];
  for (const [field, value] of Object.entries(event)) {
    if (value === undefined) continue;
    const needs = fieldConsentLevel[field];
    if (needs === undefined) found.push({ field, needs: null });
    else if (typeof level !== 'number' || needs > level) found.push({ field, needs });
  }
  return found;
}
