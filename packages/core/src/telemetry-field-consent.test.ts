import { describe, expect, it } from 'vitest';
import { reduceTelemetryEventToConsent, telemetryFieldLevel } from './telemetry-field-consent.js';
import type { TelemetryEvent } from './telemetry-event-schema.js';
import { telemetryEventSchema } from './telemetry-event-schema.js';

// A level-4 event as ADR-018's "Cross-Project Compatibility" section shapes it.
const research: TelemetryEvent = {
  schema_version: '1.1.0',
  event_id: '5f0c6a52-8d1e-4d0b-9a51-3f7d0b7a9e21',
  session_id: 'session-1',
  timestamp: '2026-11-22T10:30:00Z',
  consent_level: 4,
  rankings: [
    { model: 'a/x', borda_score: 1, borda_points: 2, vote_count: 2, win_count: 2, final_rank: 1, confidence: 'high' },
  ],
  bias_indicators: {
    position_variance: 0.23,
    length_correlation: 0.12,
    reviewer_agreement: 0.78,
    flags: ['POSITION_BIAS_DETECTED'],
  },
  query_metadata: { category: 'coding', token_count_bucket: '100-500', language: 'en' },
  query_hash: '0123456789abcdef',
};

describe('the consent level of each telemetry field (ADR-018 unified consent table)', () => {
  it('sends rankings from level 2, the bias summary and metadata from 3, the hash only at 4', () => {
    expect(telemetryFieldLevel('rankings')).toBe(2);
    expect(telemetryFieldLevel('bias_indicators')).toBe(3);
    expect(telemetryFieldLevel('query_metadata')).toBe(3);
    expect(telemetryFieldLevel('query_hash')).toBe(4);
    expect(telemetryFieldLevel('query_text')).toBeUndefined();
    expect(telemetryFieldLevel('toString')).toBeUndefined();
  });

  it('reduces a queued level-4 event to what each lower consent allows, and to nothing below 2', () => {
    expect(reduceTelemetryEventToConsent(research, 4)).toEqual(research);
    const level3 = reduceTelemetryEventToConsent(research, 3)!;
    expect(Object.keys(level3).sort()).toEqual([
      'bias_indicators',
      'consent_level',
      'event_id',
      'query_metadata',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    expect(level3.consent_level).toBe(3);
    const level2 = reduceTelemetryEventToConsent(research, 2)!;
    expect(Object.keys(level2).sort()).toEqual([
      'consent_level',
      'event_id',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    expect(reduceTelemetryEventToConsent(research, 1)).toBeNull();
    expect(reduceTelemetryEventToConsent(research, 0)).toBeNull();
    for (const reduced of [level3, level2]) expect(telemetryEventSchema.safeParse(reduced).success).toBe(true);
  });

  it('never raises an event above its own level', () => {
    const { bias_indicators: _b, query_metadata: _q, query_hash: _h, ...rest } = research;
    const level2: TelemetryEvent = { ...rest, consent_level: 2 };
    expect(reduceTelemetryEventToConsent(level2, 4)).toEqual(level2);
  });

  it('makes the schema reject a field above the event level, naming the level it needs', () => {
    const result = telemetryEventSchema.safeParse({ ...research, consent_level: 3 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['query_hash needs consent level 4; this event has 3']);
  });
});
