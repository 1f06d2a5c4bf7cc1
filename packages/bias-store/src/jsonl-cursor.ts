import * as z from 'zod';
import { BiasStoreError } from './bias-store-error.js';

/**
 * A place in a store to resume reading from: the segment's sequence number, the byte offset
 * (uncompressed) of the next line in it, and how many lines of that segment lie before it.
 * Every `JsonlEntry` carries the cursor just past its line as `next`.
 */
export interface JsonlCursor {
  segment: number;
  offset: number;
  line: number;
}

/** The start of a store. */
export const startCursor: JsonlCursor = { segment: 0, offset: 0, line: 0 };

// Built on first use (z.lazy), not when the store's modules load: most commands read no cursor.
const cursorSchema = z.lazy(() =>
  z.object({
    segment: z.number().int().min(0),
    offset: z.number().int().min(0),
    line: z.number().int().min(0),
  }),
);

/** Parses the text of a cursor file (`{"segment":…,"offset":…,"line":…}`); returns the error instead of throwing. */
export function safeParseJsonlCursor(
  text: string,
  source = 'cursor',
): { success: true; value: JsonlCursor } | { success: false; error: BiasStoreError } {
  const fail = (what: string) => ({
    success: false as const,
    error: new BiasStoreError({
      code: 'INVALID_CURSOR',
      message: `${source} is not a cursor: ${what}. Delete it to start again from the beginning (items already handled will be seen again).`,
    }),
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail('not valid JSON');
  }
  const result = cursorSchema.safeParse(raw);
  if (!result.success) return fail('expected {"segment": integer ≥ 0, "offset": integer ≥ 0, "line": integer ≥ 0}');
  return { success: true, value: result.data };
}

/** Parses the text of a cursor file; throws a `BiasStoreError` (`INVALID_CURSOR`). */
export function parseJsonlCursor(text: string, source?: string): JsonlCursor {
  const result = safeParseJsonlCursor(text, source);
  if (!result.success) throw result.error;
  return result.value;
}
