import * as z from 'zod';

/** A small generic item for store tests: a session, a time, a sequence number and optional padding. */
export const eventSchema = z.object({
  session: z.string(),
  t: z.string(),
  i: z.number().int(),
  pad: z.string().optional(),
});
export type TestEvent = z.infer<typeof eventSchema>;
