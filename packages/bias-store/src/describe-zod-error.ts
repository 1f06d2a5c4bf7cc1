import type { z } from 'zod';

/** The first three issues of a zod error, as `path: message`. */
export function describeZodError(error: z.ZodError): string {
  // Paths and zod's messages only: zod 4 messages name the expected type, never the received value.
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(record)'}: ${issue.message}`)
    .join('; ');
}

export function isZodError(error: unknown): error is z.ZodError {
  return typeof error === 'object' && error !== null && 'issues' in error && Array.isArray(error.issues);
}
