import * as z from 'zod';

/**
 * One line of `telemetry/dead-letter.jsonl`: an outbox line that will not be sent, and why. The outbox
 * itself is never rewritten, so `outbox_segment`/`outbox_line` point at the original line; `event`
 * holds the event as it was (or would have been) sent when there was one.
 */
export const deadLetterEntrySchema = z
  .object({
    dead_lettered_at: z.string(),
    /** `council-cloud`: refused by the server (a `rejected` entry or a 400 for that event alone); `uploader`: refused before sending. */
    refused_by: z.enum(['council-cloud', 'uploader']),
    reason: z.string(),
    event_id: z.string().nullable(),
    outbox_segment: z.number().int().min(0),
    outbox_line: z.number().int().min(1),
    event: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'DeadLetterEntry' });

export type DeadLetterEntry = z.infer<typeof deadLetterEntrySchema>;
