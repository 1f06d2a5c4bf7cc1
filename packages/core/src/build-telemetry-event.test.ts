import { beforeAll, describe, expect, it } from 'vitest';
import { chairmanReply, fixedClock, reviewByPreference, testModel } from './__fixtures__/scripted-council.js';
import { buildTelemetryEvent } from './build-telemetry-event.js';
import type { CouncilSession } from './council-session.js';
import { observationsFromSession } from './observations-from-session.js';
import { runCouncil } from './run-council.js';
import { telemetryEventSchema } from './telemetry-event-schema.js';

const query = 'SECRET-QUERY: how should I restructure my company?';
const quality = (text: string): number => Number(/quality (\d+)/.exec(text)?.[1] ?? 0);
let session: CouncilSession;

beforeAll(async () => {
  const members = ['a/one', 'b/two', 'c/three'].map((id, i) =>
    testModel(id, (call) =>
      call.role === 'answer'
        ? `answer quality ${9 - i} from ${id}`
        : call.role === 'review'
          ? reviewByPreference(call.prompt, quality)
          : chairmanReply('Done.', { [id]: 1 }),
    ),
  );
  session = await runCouncil({ query, members, seed: 1, clock: fixedClock, biasAudit: true });
});

const eventId = '0b5c3a7e-2f41-4c8a-9d3e-5a6b7c8d9e0f';
const meta = { category: 'general', tokenCountBucket: '0-100', language: 'en' };

describe('buildTelemetryEvent', () => {
  it('sends nothing at consent levels 0 and 1', () => {
    expect(buildTelemetryEvent(session, 0)).toBeNull();
    expect(buildTelemetryEvent(session, 1, { queryMetadata: meta, queryHash: 'abcdef0123456789' })).toBeNull();
  });

  it('level 2: rankings only, by model id, even when metadata and hash are offered', () => {
    const event = buildTelemetryEvent(session, 2, { eventId, queryMetadata: meta, queryHash: 'abcdef0123456789' })!;
    expect(Object.keys(event).sort()).toEqual([
      'consent_level',
      'event_id',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    expect(event.schema_version).toBe('1.1.0');
    expect(event.event_id).toBe(eventId);
    expect(event.session_id).toBe(session.sessionId);
    // a/one (quality 9) is ranked first by both other reviewers; by hand as in ADR-007: scores 1, 0.5, 0.
    expect(event.rankings).toEqual([
      {
        model: 'a/one',
        borda_score: 1,
        borda_points: 1,
        vote_count: 2,
        win_count: 2,
        final_rank: 1,
        confidence: 'high',
      },
      {
        model: 'b/two',
        borda_score: 0.5,
        borda_points: 0.5,
        vote_count: 2,
        win_count: 1,
        final_rank: 2,
        confidence: 'high',
      },
      {
        model: 'c/three',
        borda_score: 0,
        borda_points: 0,
        vote_count: 2,
        win_count: 0,
        final_rank: 3,
        confidence: 'high',
      },
    ]);
  });

  it('level 3 adds bias_indicators and query_metadata; level 4 adds query_hash', () => {
    const three = buildTelemetryEvent(session, 3, { eventId, queryMetadata: meta, queryHash: 'abcdef0123456789' })!;
    expect(three.bias_indicators).toEqual(session.biasIndicators);
    expect(three.query_metadata).toEqual({ category: 'general', token_count_bucket: '0-100', language: 'en' });
    expect('query_hash' in three).toBe(false);
    const four = buildTelemetryEvent(session, 4, { eventId, queryMetadata: meta, queryHash: 'abcdef0123456789' })!;
    expect(four.query_hash).toBe('abcdef0123456789');
  });

  it('never carries the query or any answer text', () => {
    for (const level of [2, 3, 4]) {
      const text = JSON.stringify(
        buildTelemetryEvent(session, level, { queryMetadata: meta, queryHash: 'abcdef0123456789' }),
      );
      expect(text).not.toContain('SECRET-QUERY');
      expect(text).not.toContain('answer quality');
      expect(text).not.toContain('Done.');
    }
  });

  it('its exported schema accepts what it builds and rejects fields beyond the consent level', () => {
    const event = buildTelemetryEvent(session, 4, { eventId, queryMetadata: meta, queryHash: 'abcdef0123456789' })!;
    expect(telemetryEventSchema.safeParse(event).success).toBe(true);
    expect(telemetryEventSchema.safeParse({ ...event, consent_level: 2 }).success).toBe(false);
    const { query_hash: _hash, ...three } = { ...event, consent_level: 3 as const };
    expect(telemetryEventSchema.safeParse(three).success).toBe(true);
    expect(telemetryEventSchema.safeParse({ ...three, query: 'x' }).success).toBe(false);
  });

  it('rejects a consent level outside 0–4 and a malformed hash', () => {
    expect(() => buildTelemetryEvent(session, 5)).toThrow(/consentLevel must be 0, 1, 2, 3 or 4/);
    expect(() => buildTelemetryEvent(session, 4, { queryHash: 'NOT HEX' })).toThrow(/query_hash/);
  });
});

describe('observationsFromSession', () => {
  it('gives one observation per (reviewer, candidate) with display position, length, score and rank — no text', () => {
    const observations = observationsFromSession(session, { configVersion: '0.1.0', queryCategory: 'general' });
    expect(observations).toHaveLength(9);
    for (const review of session.stage2) {
      for (const [position, candidate] of review.order.entries()) {
        const o = observations.find((x) => x.reviewer === review.reviewer && x.candidate === candidate)!;
        const quality = 9 - ['a/one', 'b/two', 'c/three'].indexOf(candidate);
        expect(o).toEqual({
          sessionId: session.sessionId,
          timestamp: session.timestamp,
          reviewer: review.reviewer,
          candidate,
          position,
          responseLengthChars: `answer quality ${quality} from ${candidate}`.length,
          score: quality,
          rankPosition: 9 - quality,
          configVersion: '0.1.0',
          queryCategory: 'general',
        });
      }
    }
    expect(JSON.stringify(observations)).not.toContain('SECRET-QUERY');
  });
});
