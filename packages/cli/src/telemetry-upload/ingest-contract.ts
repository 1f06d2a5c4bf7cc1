import * as z from 'zod';
import { telemetryEventSchema } from '@council/core';

/** The most events one `POST /v1/events` may carry. */
export const maxEventsPerBatch = 100;

/**
 * The body of `POST /v1/events`. Each event's `event_id` (ADR-018: a UUID v4, set once when the session queued
 * it and never changed by the uploader) is its idempotency key: council-cloud stores an `event_id` at most once,
 * whatever batch it comes in, so an event sent again after a lost answer, in a batch of another size, or after
 * `retry-dead` is recognised and not counted twice.
 */
export const ingestRequestSchema = z
  .object({
    events: z.array(telemetryEventSchema).min(1).max(maxEventsPerBatch),
  })
  .meta({
    id: 'IngestRequest',
    description: `One batch of 1 to ${maxEventsPerBatch} events. Each event's event_id is its idempotency key: council-cloud stores an event_id at most once, whatever batch carries it.`,
  });

/** One event council-cloud refused, by its id. */
export const ingestRejectionSchema = z
  .object({
    event_id: z.string(),
    reason: z.string(),
  })
  .meta({
    id: 'IngestRejection',
    description:
      'An event council-cloud refuses, named by its event_id, and why. The uploader dead-letters exactly the events named so.',
  });

export type IngestRejection = z.infer<typeof ingestRejectionSchema>;

/** A 2xx answer: the batch is committed; events listed in `rejected` were refused individually. */
export const ingestResponseSchema = z
  .looseObject({
    accepted: z.number().int().min(0).optional(),
    rejected: z.array(ingestRejectionSchema).optional(),
    duplicates: z.array(z.string()).optional(),
  })
  .meta({
    id: 'IngestResponse',
    description:
      'The batch is committed. Events listed in `rejected` were not stored. Events listed in `duplicates` (by event_id) were stored by an earlier request and were not stored again; the uploader counts them as delivered.',
  });

/**
 * A 4xx/5xx answer's body. A 4xx whose body fits this schema and names events of the batch in `rejected` is
 * council-cloud's own refusal of those events (nothing of the batch was stored); any other 4xx is not about the
 * events — it may not even come from council-cloud (a proxy's page) — and is retried like a 5xx.
 */
export const ingestErrorSchema = z
  .looseObject({
    error: z
      .union([z.string(), z.looseObject({ code: z.string().optional(), message: z.string().optional() })])
      .optional(),
    message: z.string().nullish(),
    rejected: z.array(ingestRejectionSchema).optional(),
  })
  .meta({
    id: 'IngestError',
    description:
      'An error answer. On a 4xx, `rejected` names the events council-cloud refuses; nothing of the batch was stored, and the uploader dead-letters those events and sends the rest again. A 4xx naming no event of the batch refuses none: it is retried like a 5xx.',
  });
