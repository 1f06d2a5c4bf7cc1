import { telemetryFieldLevel } from '@council/core';

/**
 * The fields of `event` that its own `consent_level` does not allow: fields present (even as null, as
 * `@council/core`'s schema has it: a field beyond the level is absent) that need a higher level, and
 * fields this uploader does not know (it cannot tell what they would disclose). Empty when the event
 * may be sent as it is.
 */
export function fieldsAboveConsent(
  event: Readonly<Record<string, unknown>>,
): { field: string; needs: number | null }[] {
  const level = event.consent_level;
  const found: { field: string; needs: number | null }[] = [];
  for (const [field, value] of Object.entries(event)) {
    if (value === undefined) continue;
    const needs = telemetryFieldLevel(field);
    if (needs === undefined) found.push({ field, needs: null });
    else if (typeof level !== 'number' || needs > level) found.push({ field, needs });
  }
  return found;
}
