import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  biasMetricRecordSchema,
  biasRecordWriteProblem,
  decodeBiasMetricRecordFast,
  parseBiasMetricRecord,
  safeParseBiasMetricRecord,
  toDiskRecord,
} from './bias-metric-record.js';
import { biasLineKeys, biasRecordCountProblem, biasRecordFields } from './bias-record-fields.js';
import type { BiasMetricRecord } from './bias-metric-record.js';

const record: BiasMetricRecord = {
  schemaVersion: '1.1.0',
  sessionId: 'abc',
  timestamp: '2025-12-17T10:30:00Z',
  consentLevel: 1,
  queryMetadata: { category: 'coding', tokenCountBucket: '100-500', language: 'en' },
  reviewerId: 'google/gemini-3-pro-preview',
  modelId: 'anthropic/claude-opus-4.6',
  position: 2,
  responseLengthChars: 1200,
  scoreValue: 8.5,
  scoreScale: '1-10',
  councilConfigVersion: '0.3.0',
  queryHash: null,
  rankPosition: 0,
  positionIsDisplayOrder: true,
};

describe('biasMetricRecordSchema', () => {
  it("writes ADR-018 v1.1's snake_case fields in the ADR's order, plus rank_position", () => {
    // Hand-written from ADR-018's v1.1 example; rank_position is the documented extension.
    const expected =
      '{"schema_version":"1.1.0","session_id":"abc","timestamp":"2025-12-17T10:30:00Z","consent_level":1,' +
      '"query_metadata":{"category":"coding","token_count_bucket":"100-500","language":"en"},' +
      '"reviewer_id":"google/gemini-3-pro-preview","model_id":"anthropic/claude-opus-4.6","position":2,' +
      '"response_length_chars":1200,"score_value":8.5,"score_scale":"1-10","council_config_version":"0.3.0",' +
      '"query_hash":null,"rank_position":0}';
    expect(JSON.stringify(biasMetricRecordSchema.encode(record))).toBe(expected);
    expect(parseBiasMetricRecord(JSON.parse(expected))).toEqual(record);
  });

  it('reads the ADR-018 v1 example (integer schema_version 1, no consent or metadata)', () => {
    const v1 = {
      schema_version: 1,
      session_id: 'uuid',
      timestamp: '2025-12-17T10:30:00Z',
      reviewer_id: 'google/gemini-3-pro-preview',
      model_id: 'anthropic/claude-opus-4.6',
      position: 2,
      response_length_chars: 1200,
      score_value: 8.5,
      score_scale: '1-10',
      council_config_version: '0.3.0',
      query_hash: null,
    };
    const parsed = parseBiasMetricRecord(v1);
    expect(parsed.schemaVersion).toBe('1');
    expect(parsed.consentLevel).toBeNull();
    expect(parsed.queryMetadata).toBeNull();
    expect(parsed.rankPosition).toBeNull();
    expect(parsed.positionIsDisplayOrder).toBe(false);
    expect(biasMetricRecordSchema.encode(parsed).schema_version).toBe(1);
  });

  it("reads the Python implementation's 1.2.0 lines (token_bucket, microseconds, unknown fields ignored)", () => {
    const python = {
      schema_version: '1.2.0',
      session_id: 's1',
      timestamp: '2025-12-17T10:30:00.123456+00:00',
      consent_level: 1,
      reviewer_id: 'a',
      model_id: 'b',
      position: 1,
      response_length_chars: 10,
      score_value: 7.0,
      score_scale: '1-10',
      council_config_version: '0.1.0',
      query_hash: null,
      query_metadata: { category: 'math_reasoning', token_bucket: 'short', language: 'en' },
      position_is_display_order: true,
    };
    const parsed = parseBiasMetricRecord(python);
    expect(parsed.queryMetadata).toEqual({ category: 'math_reasoning', tokenCountBucket: 'short', language: 'en' });
    expect(parsed.positionIsDisplayOrder).toBe(true);
    expect(parsed).not.toHaveProperty('position_is_display_order');
    // 1.1.0 from Python (no rank_position) may hold a ranking index in `position`.
    expect(parseBiasMetricRecord({ ...python, schema_version: '1.1.0' }).positionIsDisplayOrder).toBe(false);
  });

  it('rejects a record of another major version and says why without quoting values', () => {
    const result = safeParseBiasMetricRecord({ ...biasMetricRecordSchema.encode(record), schema_version: '2.0.0' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.code).toBe('INVALID_RECORD');
      expect(result.error.message).toContain('schema_version');
    }
  });

  it('keeps an unscored review as null, never 0', () => {
    const line = { ...biasMetricRecordSchema.encode(record), score_value: null };
    expect(parseBiasMetricRecord(line).scoreValue).toBeNull();
    expect(safeParseBiasMetricRecord({ ...line, score_value: undefined }).success).toBe(false);
  });

  it('checks the write rules past the schema', () => {
    expect(biasRecordWriteProblem(record)).toBeUndefined();
    expect(biasRecordWriteProblem({ ...record, consentLevel: 0 })).toMatch(/nothing is written/);
    expect(biasRecordWriteProblem({ ...record, timestamp: '2025-12-17T10:30:00' })).toMatch(/zone/);
    expect(biasRecordWriteProblem({ ...record, queryHash: '0123456789abcdef' })).toMatch(/level 4/);
    expect(biasRecordWriteProblem({ ...record, queryHash: '0123456789abcdef', consentLevel: 4 })).toBeUndefined();
    expect(biasRecordWriteProblem({ ...record, schemaVersion: '1.2.0' })).toMatch(/1\.1\.0/);
    // query_metadata carries labels, never text: a query pasted into a label is refused.
    const canary = 'CANARY how do I rotate my production database password';
    expect(
      biasRecordWriteProblem({
        ...record,
        queryMetadata: { category: canary, tokenCountBucket: '0-100', language: 'en' },
      }),
    ).toMatch(/category must be one of/);
    expect(
      biasRecordWriteProblem({
        ...record,
        queryMetadata: { category: 'coding', tokenCountBucket: canary, language: 'en' },
      }),
    ).toMatch(/token_count_bucket/);
    expect(
      biasRecordWriteProblem({
        ...record,
        queryMetadata: { category: 'coding', tokenCountBucket: '5000+', language: canary },
      }),
    ).toMatch(/language/);
    expect(
      biasRecordWriteProblem({ ...record, queryMetadata: { category: null, tokenCountBucket: null, language: 'und' } }),
    ).toBeUndefined();
  });
});

describe('decodeBiasMetricRecordFast', () => {
  // Values near the edges of each field's type, including wrong types.
  const anyValue = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer({ min: -3, max: 5 }),
    fc.double({ noNaN: true }),
    fc.constantFrom(
      '',
      '1',
      '1.1.0',
      '1.2',
      '2.0.0',
      '1.x',
      'abc',
      '0123456789abcdef',
      '0123456789ABCDEF',
      '2025-12-17T10:30:00Z',
      '2025-02-30T00:00:00Z',
      '2025-12-17T10:30:00',
    ),
    fc.constant([]),
    fc.constant({ category: 'c', token_bucket: 'short' }),
    fc.constant({ category: 1 }),
  );
  const base = biasMetricRecordSchema.encode(record) as Record<string, unknown>;
  const keys = [...Object.keys(base), 'extra'];

  it('accepts only what the zod schema accepts, and decodes it identically', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 4 }), (changes) => {
        const raw: Record<string, unknown> = { ...base, ...changes };
        for (const [k, v] of Object.entries(changes)) if (v === undefined) delete raw[k];
        const fast = decodeBiasMetricRecordFast(raw);
        const slow = biasMetricRecordSchema.safeDecode(raw as never);
        if (fast !== undefined) {
          expect(slow.success).toBe(true);
          if (slow.success) expect(fast).toEqual(slow.data);
        }
        if (slow.success) expect(fast).toEqual(slow.data); // and it never falls back on a valid record
      }),
      { numRuns: 2000 },
    );
  }, 30_000);
});

describe('the hand-written paths and the record table (bias-record-fields.ts)', () => {
  const lineFields = biasRecordFields.filter((f) => f.presence !== 'derived');

  it('writes every field of the table, in its order, and no other', () => {
    const disk = toDiskRecord(record) as Record<string, unknown>;
    expect(Object.keys(disk)).toEqual(
      biasLineKeys.filter((key) => lineFields.some((f) => f.key === key) || key === 'query_metadata'),
    );
    expect(Object.keys(disk['query_metadata'] as object)).toEqual(
      lineFields.filter((f) => f.inMetadata).map((f) => f.key),
    );
  });

  it('reads every field of the table into its API name, fast or through the schema', () => {
    const disk = toDiskRecord(record) as Record<string, unknown>;
    for (const decoded of [decodeBiasMetricRecordFast(disk), parseBiasMetricRecord(disk)]) {
      const top = decoded as unknown as Record<string, unknown>;
      expect(Object.keys(top)).toEqual([
        ...biasRecordFields
          .filter((f) => !f.inMetadata)
          .map((f) => f.api)
          .slice(0, 4),
        'queryMetadata',
        ...biasRecordFields
          .filter((f) => !f.inMetadata)
          .map((f) => f.api)
          .slice(4),
      ]);
      expect(Object.keys(top['queryMetadata'] as object)).toEqual(
        biasRecordFields.filter((f) => f.inMetadata).map((f) => f.api),
      );
      for (const f of biasRecordFields.filter((f) => !f.inMetadata))
        expect(top[f.api]).toBe(record[f.api as keyof BiasMetricRecord]);
    }
  });

  it('requires the required and nullable fields of the table, and only those', () => {
    const disk = toDiskRecord(record) as Record<string, unknown>;
    for (const f of lineFields.filter((f) => !f.inMetadata)) {
      const { [f.key]: _, ...without } = disk;
      const required = f.presence === 'required' || f.presence === 'nullable';
      expect(safeParseBiasMetricRecord(without).success, f.key).toBe(!required);
      expect(decodeBiasMetricRecordFast(without) !== undefined, f.key).toBe(!required);
    }
  });
});

describe('biasRecordCountProblem', () => {
  const message = 'position, rank_position or response_length_chars is 4,294,967,295 or more';
  it('accepts counts up to 4,294,967,294 and an unranked record', () => {
    expect(
      biasRecordCountProblem({
        ...record,
        position: 4_294_967_294,
        responseLengthChars: 4_294_967_294,
        rankPosition: 4_294_967_294,
      }),
    ).toBeUndefined();
    expect(biasRecordCountProblem({ ...record, rankPosition: null })).toBeUndefined();
  });
  it('refuses any count of 4,294,967,295 (2^32 - 1: "not ranked" in the columns) or more', () => {
    expect(biasRecordCountProblem({ ...record, position: 2 ** 32 - 1 })).toBe(message);
    expect(biasRecordCountProblem({ ...record, responseLengthChars: 2 ** 40 })).toBe(message);
    expect(biasRecordCountProblem({ ...record, rankPosition: 2 ** 32 - 1 })).toBe(message);
  });
});
