import { describeZodError } from '@council/bias-store';
import type { TelemetryEvent } from '@council/core';
import { minimumTelemetryConsentLevel, reduceTelemetryEventToConsent, telemetryEventSchema } from '@council/core';
import { fieldsAboveConsent } from './event-consent.js';

/** What the uploader does with one event read from the outbox. */
export type OutboxEventDecision =
  /** Send `event` (possibly reduced to the current consent ceiling). */
  | { kind: 'send'; event: TelemetryEvent; reduced: boolean }
  /** Never sent: consent 0–1, or it does not fit the schema. Dead-lettered with `reason`. */
  | { kind: 'set-aside'; reason: string; eventId: string | null }
  /** A field above the event's own consent level: a bug upstream that stops the upload. */
  | { kind: 'violation'; reason: string; eventId: string | null };

/**
 * Decides about one outbox event, defence in depth: its own `consent_level` must allow every field
 * it carries (else `violation`); levels 0–1 are never sent; it must fit the schema. With a
 * `ceiling` (the user's current consent, when lower than the event's), the fields above the ceiling
 * are removed from the copy that is sent, so lowering consent takes effect for events already queued.
 */
export function classifyOutboxEvent(raw: Readonly<Record<string, unknown>>, ceiling?: number): OutboxEventDecision {
  const eventId = typeof raw.event_id === 'string' ? raw.event_id : null;
  const level = raw.consent_level;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level > 4) {
    return { kind: 'set-aside', reason: 'consent_level is missing or not an integer from 0 to 4', eventId };
  }
  const above = fieldsAboveConsent(raw);
  if (above.length > 0) {
    const list = above
      .map((a) =>
        a.needs === null ? `${a.field} (not a field of the event schema)` : `${a.field} (needs consent ${a.needs})`,
      )
      .join(', ');
    return { kind: 'violation', reason: `it has consent_level ${level} but carries ${list}`, eventId };
  }
  if (level < minimumTelemetryConsentLevel) {
    return {
      kind: 'set-aside',
      reason: `consent_level ${level} allows no transmission (only levels 2 to 4 are sent)`,
      eventId,
    };
  }
  const parsed = telemetryEventSchema.safeParse(raw);
  if (!parsed.success)
    return {
      kind: 'set-aside',
      reason: `it does not fit the event schema: ${describeZodError(parsed.error, '(event)')}`,
      eventId,
    };
  if (ceiling === undefined || ceiling >= level) return { kind: 'send', event: parsed.data, reduced: false };
  const reduced = reduceTelemetryEventToConsent(parsed.data, ceiling);
  if (reduced === null)
    return { kind: 'set-aside', reason: `the current consent level ${ceiling} allows no transmission`, eventId };
  return { kind: 'send', event: reduced, reduced: true };
}
