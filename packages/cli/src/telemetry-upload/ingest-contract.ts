import * as z from 'zod';
import { telemetryEventSchema } from '@council/core';

/** The most events one `POST /v1/events` may carry. */
export const maxEventsPerBatch = 100;

/** The body of `POST /v1/events`. */
export const ingestRequestSchema = z
  .object({
    events: z.array(telemetryEventSchema).min(1).max(maxEventsPerBatch),
  })
  .meta({ id: 'IngestRequest', description: `One batch of 1 to ${maxEventsPerBatch} events.` });

/** One event council-cloud refused although the batch was committed. */
export const ingestRejectionSchema = z
  .object({
    event_id: z.string(),
    reason: z.string(),
  })
  .meta({ id: 'IngestRejection', description: 'An event of the batch that was not stored, and why. The uploader dead-letters it.' });

export type IngestRejection = z.infer<typeof ingestRejectionSchema>;

/** A 2xx answer: the batch is committed; events listed in `rejected` were refused individually. */
export const ingestResponseSchema = z
  .looseObject({
    accepted: z.number().int().min(0).optional(),
    rejected: z.array(ingestRejectionSchema).optional(),
  })
  .meta({ id: 'IngestResponse', description: 'The batch is committed. Events listed in `rejected` were not stored.' });

/** A 4xx/5xx answer's body, as far as the uploader reads it (for the message only). */
export const ingestErrorSchema = z
  .looseObject({
    error: z.union([z.string(), z.looseObject({ code: z.string().optional(), message: z.string().optional() })]).optional(),
    message: z.string().nullish(),
  })
  .meta({ id: 'IngestError', description: 'An error answer. Only the message is read, to show the user.' });
