import type { TelemetryEvent } from './telemetry-event-schema.js';

/**
 * The lowest consent level at which each top-level field of a council-cloud event may leave the
 * machine (ADR-018, "Unified Consent Model"): the envelope with the rankings at 2 (Anonymous), the
 * bias summary and query metadata at 3 (Enhanced), the query hash at 4 (Research). The one place
 * this rule is written: the event schema, the uploader and `council telemetry preview` all read it.
 */
export const telemetryFieldConsentLevel: Readonly<Record<keyof TelemetryEvent, number>> = {
  schema_version: 0,
  event_id: 0,
  session_id: 0,
  timestamp: 0,
  consent_level: 0,
  rankings: 2,
  verdict: 2,
  bias_indicators: 3,
  query_metadata: 3,
  query_hash: 4,
};

/** The lowest consent level at which anything is sent; levels 0 (Off) and 1 (Local only) send nothing. */
export const minimumTelemetryConsentLevel = 2;

/** The level a field needs, or undefined for a field the event schema does not have. */
export function telemetryFieldLevel(field: string): number | undefined {
  return Object.hasOwn(telemetryFieldConsentLevel, field)
    ? telemetryFieldConsentLevel[field as keyof TelemetryEvent]
    : undefined;
}

/**
 * The copy of `event` that may be sent when the user's consent is now `ceiling`: `consent_level`
 * lowered to it and every field above it removed, so lowering consent also covers events already
 * queued. Unknown fields are removed too. Returns null when the ceiling allows no transmission.
 */
export function reduceTelemetryEventToConsent(event: TelemetryEvent, ceiling: number): TelemetryEvent | null {
  const level = Math.min(event.consent_level, ceiling);
  if (level < minimumTelemetryConsentLevel) return null;
  const reduced: Record<string, unknown> = { ...event, consent_level: level };
  for (const field of Object.keys(reduced)) {
    if ((telemetryFieldLevel(field) ?? Infinity) > level) delete reduced[field];
  }
  return reduced as TelemetryEvent;
}
