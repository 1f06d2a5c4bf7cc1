import * as z from 'zod';
import { telemetryFieldLevel } from './telemetry-field-consent.js';

/** The schema version of ADR-018's council-cloud event. */
export const TELEMETRY_SCHEMA_VERSION = '1.1.0';

const rankingSchema = z
  .object({
    model: z.string().min(1),
    borda_score: z.number().min(0).max(1),
    borda_points: z.number().min(0),
    vote_count: z.number().int().min(0),
    win_count: z.number().int().min(0),
    final_rank: z.number().int().min(1),
    confidence: z.enum(['high', 'medium', 'low']),
  })
  .strict();

const biasIndicatorsSchema = z
  .object({
    position_variance: z.number().nullable(),
    length_correlation: z.number().min(-1).max(1).nullable(),
    reviewer_agreement: z.number().nullable(),
    flags: z.array(z.string().regex(/^[A-Z_]+$/)),
  })
  .strict();

const queryMetadataSchema = z
  .object({
    category: z.string().nullable(),
    token_count_bucket: z.string().nullable(),
    language: z.string().nullable(),
  })
  .strict();

/**
 * A jury session's verdict (issue 32), at consent level 2 like the rankings: the mode, the decision, the weighted
 * margin, flip sensitivity and the vote counts. Never a juror's reasons, the rationale, the dissent or evidence.
 */
const verdictSchema = z
  .object({
    mode: z.enum(['binary', 'tie-breaker']),
    decision: z.enum(['approve', 'reject', 'unclear']),
    reason: z.enum(['majority', 'tie', 'tie-breaker', 'below-margin', 'no-quorum']),
    margin: z.number().min(-1).max(1),
    min_margin: z.number().min(0).max(1),
    flip_sensitive: z.boolean(),
    approve: z.number().int().min(0),
    reject: z.number().int().min(0),
    unclear: z.number().int().min(0),
    failed: z.number().int().min(0),
  })
  .strict();

/**
 * ADR-018's council-cloud telemetry event (schema 1.1.0), snake_case as sent. Fields beyond the
 * consent level are absent, and the schema enforces it: level 2 carries `rankings` only; level 3 adds
 * `bias_indicators` and `query_metadata`; level 4 adds `query_hash`. Levels 0–1 send nothing.
 */
export const telemetryEventSchema = z
  .object({
    schema_version: z.literal(TELEMETRY_SCHEMA_VERSION),
    event_id: z.uuid(),
    session_id: z.string().min(1),
    timestamp: z.iso.datetime({ offset: true }),
    consent_level: z.union([z.literal(2), z.literal(3), z.literal(4)]),
    rankings: z.array(rankingSchema),
    verdict: verdictSchema.optional(),
    bias_indicators: biasIndicatorsSchema.nullable().optional(),
    query_metadata: queryMetadataSchema.nullable().optional(),
    query_hash: z
      .string()
      .regex(/^[0-9a-f]{8,64}$/)
      .nullable()
      .optional(),
  })
  .strict()
  .superRefine((event, ctx) => {
    for (const key of Object.keys(event)) {
      const needs = telemetryFieldLevel(key) ?? Infinity;
      if (needs > event.consent_level) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} needs consent level ${needs}${needs < 4 ? ' or more' : ''}; this event has ${event.consent_level}`,
        });
      }
    }
  });

/** A council-cloud telemetry event as sent. */
export type TelemetryEvent = z.infer<typeof telemetryEventSchema>;
