import { BiasStoreError } from './bias-store-error.js';

/** The longest line a store writes or reads by default (1 MiB); the CLI's history log keeps the same limit. */
export const defaultMaxLineBytes = 1024 * 1024;

/** A store's sizes and timings, checked, with their defaults filled in. */
export interface JsonlStoreSettings {
  path: string;
  segmentBytes: number;
  maxLineBytes: number;
  lockStaleMs: number;
}

/** Checks `createJsonlStore`'s path, sizes and lock timing; throws `INVALID_OPTION` naming the one that is wrong. */
export function resolveJsonlStoreSettings(options: {
  path: string;
  segmentBytes?: number;
  maxLineBytes?: number;
  rotationLockStaleMs?: number;
}): JsonlStoreSettings {
  const path = options.path;
  if (typeof path !== 'string' || path.trim() === '') {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: 'createJsonlStore: path must be the path of a file, e.g. ~/.llm-council/bias_metrics.jsonl.',
    });
  }
  const segmentBytes = options.segmentBytes ?? 64 * 1024 * 1024;
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  const lockStaleMs = options.rotationLockStaleMs ?? 30_000;
  if (!Number.isFinite(lockStaleMs) || lockStaleMs < 0) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `createJsonlStore: rotationLockStaleMs must be a number of milliseconds ≥ 0; got ${String(lockStaleMs)}.`,
    });
  }
  for (const [name, value] of [
    ['segmentBytes', segmentBytes],
    ['maxLineBytes', maxLineBytes],
  ] as const) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `createJsonlStore: ${name} must be a positive integer number of bytes.`,
      });
    }
  }
  return { path, segmentBytes, maxLineBytes, lockStaleMs };
}
