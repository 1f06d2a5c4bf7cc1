import type { BiasObservation } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { BiasStoreError } from './bias-store-error.js';
import { recordsFromObservations } from './records-from-observations.js';
import { toObservation } from './to-observation.js';

const observation: BiasObservation = {
  sessionId: 'session-1',
  timestamp: '2026-11-22T10:30:00Z',
  reviewer: 'openai/gpt-5.1',
  candidate: 'anthropic/claude-opus-4.6',
  position: 2,
  responseLengthChars: 1200,
  score: 8.5,
  rankPosition: 0,
  configVersion: '0.4.0',
  queryCategory: null,
};
const query = 'What is the capital of France?';
const secret = 'test-secret-0123456789';

describe('recordsFromObservations', () => {
  it('builds one 1.1.0 record per observation with ADR-018 fields and derived query metadata', () => {
    const [record, ...rest] = recordsFromObservations([observation], { consent: 1, hashSecret: null, query });
    expect(rest).toHaveLength(0);
    expect(record).toEqual({
      schemaVersion: '1.1.0',
      sessionId: 'session-1',
      timestamp: '2026-11-22T10:30:00Z',
      consentLevel: 1,
      // "What is the capital…": no category cue → general; 30 chars → 8 tokens → 0-100; "what", "is", "the", "of" → en.
      queryMetadata: { category: 'general', tokenCountBucket: '0-100', language: 'en' },
      reviewerId: 'openai/gpt-5.1',
      modelId: 'anthropic/claude-opus-4.6',
      position: 2,
      responseLengthChars: 1200,
      scoreValue: 8.5,
      scoreScale: '1-10',
      councilConfigVersion: '0.4.0',
      queryHash: null,
      rankPosition: 0,
      positionIsDisplayOrder: true,
    });
  });

  it('writes nothing at consent 0', () => {
    expect(recordsFromObservations([observation], { consent: 0, hashSecret: secret, query })).toEqual([]);
  });

  it('hashes the query only at consent 4, with the secret (value from Python hmac)', () => {
    for (const consent of [1, 2, 3] as const) {
      expect(recordsFromObservations([observation], { consent, hashSecret: secret, query })[0]!.queryHash).toBeNull();
    }
    expect(recordsFromObservations([observation], { consent: 4, hashSecret: secret, query })[0]!.queryHash).toBe(
      '25b9009373b94624',
    );
  });

  it('fails at consent 4 without a secret, saying what to set', () => {
    expect(() => recordsFromObservations([observation], { consent: 4, hashSecret: null, query })).toThrow(
      /LLM_COUNCIL_HASH_SECRET/,
    );
    expect(() => recordsFromObservations([observation], { consent: 4, hashSecret: '', query })).toThrow(BiasStoreError);
  });

  it('keeps an unscored review as null and gives null metadata without a query', () => {
    const [record] = recordsFromObservations([{ ...observation, score: null, rankPosition: null }], {
      consent: 2,
      hashSecret: null,
      query: null,
    });
    expect(record!.scoreValue).toBeNull();
    expect(record!.rankPosition).toBeNull();
    expect(record!.queryMetadata).toBeNull();
  });

  it('rejects a duplicate (session, candidate, reviewer) and bad observations, naming which, never the query', () => {
    const canary = 'CANARY-d41d8cd98f00b204-never-print-me';
    const attempts: (() => unknown)[] = [
      () => recordsFromObservations([observation, observation], { consent: 1, hashSecret: null, query: canary }),
      () =>
        recordsFromObservations([{ ...observation, timestamp: '2026-11-22T10:30:00' }], {
          consent: 1,
          hashSecret: null,
          query: canary,
        }),
      () =>
        recordsFromObservations([{ ...observation, position: -1 }], { consent: 1, hashSecret: null, query: canary }),
      () =>
        recordsFromObservations([{ ...observation, score: Number.NaN }], {
          consent: 1,
          hashSecret: null,
          query: canary,
        }),
      () => recordsFromObservations([observation], { consent: 4, hashSecret: null, query: canary }),
    ];
    for (const attempt of attempts) {
      try {
        attempt();
        expect.unreachable('should have thrown');
      } catch (error) {
        expect(BiasStoreError.isInstance(error)).toBe(true);
        expect((error as Error).message).not.toContain('CANARY');
      }
    }
    expect(() => attempts[0]!()).toThrow(/observation 1 \(session session-1\).*one record per/);
  });
});

describe('toObservation', () => {
  it('round-trips an observation through a record', () => {
    const [record] = recordsFromObservations([observation], { consent: 1, hashSecret: null, query: 'Write a poem' });
    expect(toObservation(record!)).toEqual({ ...observation, queryCategory: 'writing' });
  });

  it('gives a zone-less timestamp as UTC', () => {
    const [record] = recordsFromObservations([observation], { consent: 1, hashSecret: null, query: null });
    expect(toObservation({ ...record!, timestamp: '2026-11-22T10:30:00' }).timestamp).toBe('2026-11-22T10:30:00.000Z');
  });
});
