import type * as z from 'zod';
import { BiasStoreError } from './bias-store-error.js';
import { describeZodError, isZodError } from './describe-zod-error.js';

/** How a store turns items into lines (see `JsonlStoreOptions`). */
export interface LineEncoding<T> {
  /** The store's active file, named in errors. */
  path: string;
  schema: z.ZodType<T>;
  maxLineBytes: number;
  checkWrite?: ((item: T) => string | undefined) | undefined;
}

/** Validates and serialises `items` as whole lines, each ending with a newline; throws (`INVALID_RECORD`) on the first that cannot be written. */
export function encodeJsonlItems<T>(items: readonly T[], encoding: LineEncoding<T>): Buffer {
  const lines = items.map((item, index) => encodeItem({ item, index, encoding }));
  return Buffer.from(`${lines.join('\n')}\n`);
}

function encodeItem<T>(options: { item: T; index: number; encoding: LineEncoding<T> }): string {
  const { item, index, encoding } = options;
  const refuse = (why: string, cause?: unknown): BiasStoreError =>
    new BiasStoreError({
      code: 'INVALID_RECORD',
      message: `Item ${index} cannot be written to ${encoding.path}: ${why}. Nothing was written.`,
      cause,
    });
  const problem = encoding.checkWrite?.(item);
  if (problem !== undefined) throw refuse(problem);
  let encoded: unknown;
  try {
    encoded = encoding.schema.encode(item);
  } catch (error) {
    throw refuse(isZodError(error) ? describeZodError(error) : 'it cannot be encoded', error);
  }
  const line = JSON.stringify(encoded);
  if (line === undefined) throw refuse('it has no JSON form');
  const bytes = Buffer.byteLength(line);
  if (bytes > encoding.maxLineBytes)
    throw refuse(`its line is ${bytes} bytes, over maxLineBytes (${encoding.maxLineBytes})`);
  return line;
}
