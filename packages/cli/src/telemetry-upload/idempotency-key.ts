import { createHash } from 'node:crypto';

/**
 * The `Idempotency-Key` of a batch: SHA-256 over its event ids in order, one per line, as 64 hex
 * characters. A retried batch carries the same key, so council-cloud can drop the replay of a batch
 * it committed without answering; a different batch (other events or another order) gets another key.
 */
export function idempotencyKey(eventIds: readonly string[]): string {
  return createHash('sha256').update(eventIds.join('\n')).digest('hex');
}
