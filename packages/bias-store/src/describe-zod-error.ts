import type * as z from 'zod';

/** What `describeZodError` reads of a zod error (structural, so a second installed copy of zod works too). */
export interface ZodIssueList {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}

/**
 * The first three issues of a zod error, as `path: message` joined by `; `; an issue at the top level
 * is named `root` (default `(record)`). The one zod-error describer of the packages that store data.
 */
export function describeZodError(error: ZodIssueList, root = '(record)'): string {
  // Paths and zod's messages only: zod 4 messages name the expected type, never the received value.
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : root}: ${issue.message}`)
    .join('; ');
}

export function isZodError(error: unknown): error is z.ZodError {
  return typeof error === 'object' && error !== null && 'issues' in error && Array.isArray(error.issues);
}
