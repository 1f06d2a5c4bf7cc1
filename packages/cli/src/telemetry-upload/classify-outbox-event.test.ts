import { describe, expect, it } from 'vitest';
import { classifyOutboxEvent } from './classify-outbox-event.js';
import { sampleEvent } from './testing/sample-events.js';

describe('classifyOutboxEvent', () => {
  it('sends events that carry exactly what their level allows', () => {
    for (const level of [2, 3, 4] as const) {
      const decision = classifyOutboxEvent(sampleEvent(1, level));
      expect(decision.kind).toBe('send');
    }
  });

  it('never sends consent 0 or 1', () => {
    for (const level of [0, 1]) {
      const event = {
        schema_version: '1.1.0',
        event_id: '00000000-0000-4000-8000-000000000001',
        session_id: 's',
        consent_level: level,
      };
      const decision = classifyOutboxEvent(event);
      expect(decision.kind).toBe('set-aside');
      expect(decision.kind === 'set-aside' && decision.reason).toContain(`consent_level ${level}`);
    }
  });

  it('flags each field above the level as a violation (ADR-018: 2 rankings, 3 + bias summary and metadata, 4 + hash)', () => {
    const cases: [level: number, field: string, needs: number][] = [
      [2, 'bias_indicators', 3],
      [2, 'query_metadata', 3],
      [2, 'query_hash', 4],
      [3, 'query_hash', 4],
    ];
    for (const [level, field, needs] of cases) {
      const event: Record<string, unknown> = { ...sampleEvent(1, 4), consent_level: level };
      for (const other of ['bias_indicators', 'query_metadata', 'query_hash']) if (other !== field) delete event[other];
      const decision = classifyOutboxEvent(event);
      expect(decision.kind, `${field} at ${level}`).toBe('violation');
      expect(decision.kind === 'violation' && decision.reason).toContain(`${field} (needs consent ${needs})`);
    }
  });

  it('a rankings field on a consent 1 event is a violation, not a silent skip', () => {
    const decision = classifyOutboxEvent({ ...sampleEvent(1, 2), consent_level: 1 });
    expect(decision.kind).toBe('violation');
  });

  it('treats an unknown field as a violation: it cannot tell what it discloses', () => {
    const decision = classifyOutboxEvent({ ...sampleEvent(1, 4), query: 'what is my password?' });
    expect(decision.kind).toBe('violation');
    expect(decision.kind === 'violation' && decision.reason).toContain('query (not a field of the event schema)');
    expect(decision.kind === 'violation' && decision.reason).not.toContain('password');
  });

  it('a field above the level is a violation even when null (core: fields beyond the level are absent)', () => {
    const decision = classifyOutboxEvent({ ...sampleEvent(1, 2), query_hash: null });
    expect(decision.kind === 'violation' && decision.reason).toContain('query_hash (needs consent 4)');
    expect(classifyOutboxEvent({ ...sampleEvent(1, 3), query_hash: null }).kind).toBe('violation');
    expect(
      classifyOutboxEvent({ ...sampleEvent(1, 4), query_hash: null, bias_indicators: null, query_metadata: null }).kind,
    ).toBe('send');
  });

  it('sets aside events that do not fit the schema, naming the path', () => {
    const decision = classifyOutboxEvent({ ...sampleEvent(1, 2), event_id: 42 });
    expect(decision.kind).toBe('set-aside');
    expect(decision.kind === 'set-aside' && decision.reason).toContain('event_id');
  });

  it('reduces an event to a lower current consent, dropping the fields above it', () => {
    const decision = classifyOutboxEvent(sampleEvent(1, 4), 2);
    expect(decision.kind).toBe('send');
    if (decision.kind !== 'send') return;
    expect(decision.reduced).toBe(true);
    expect(Object.keys(decision.event).sort()).toEqual([
      'consent_level',
      'event_id',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    expect(decision.event.consent_level).toBe(2);
    const three = classifyOutboxEvent(sampleEvent(1, 4), 3);
    expect(three.kind === 'send' && Object.keys(three.event).sort()).toEqual([
      'bias_indicators',
      'consent_level',
      'event_id',
      'query_metadata',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
  });
});
