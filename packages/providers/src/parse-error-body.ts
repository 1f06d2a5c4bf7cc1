import type * as z from 'zod';

/**
 * Reads a non-2xx body by the vendor's error schema. Undefined when it is not JSON (a proxy's HTML
 * page) or not that shape: then the status code alone decides the error.
 */
export function parseErrorBody<T>(bodyText: string, schema: z.ZodType<T>): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(bodyText));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
