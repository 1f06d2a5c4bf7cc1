import { z } from 'zod';

// INTERIM: the council-cloud event schema belongs to @council/core (issue 7); this copy follows
// ADR-018 "Cross-Project Compatibility" until core exports `telemetryEventSchema`, then it is replaced by it.

const biasIndicatorsSchema = z.object({
  position_variance: z.number().nullable(),
  length_correlation: z.number().nullable(),
  reviewer_agreement: z.number().nullable(),
  flags: z.array(z.string()),
});

const queryMetadataSchema = z.object({
  category: z.string(),
  token_count_bucket: z.string(),
  language: z.string(),
});

const rankingSchema = z.object({
  model_id: z.string(),
  rank: z.number().int().min(1),
  borda_score: z.number().optional(),
});

/** ADR-018's council-cloud event, schema "1.1.0". */
export const telemetryEventSchema = z.object({
  schema_version: z.string().regex(/^1\.\d+\.\d+$/),
  event_id: z.string().uuid(),
  session_id: z.string().min(1),
  timestamp: z.string().optional(),
  consent_level: z.number().int().min(0).max(4),
  rankings: z.array(rankingSchema).nullable().optional(),
  bias_indicators: biasIndicatorsSchema.nullable().optional(),
  query_metadata: queryMetadataSchema.nullable().optional(),
  query_hash: z.string().nullable().optional(),
});

export type TelemetryEvent = z.infer<typeof telemetryEventSchema>;
