import { createHmac } from 'node:crypto';
import { BiasStoreError } from './bias-store-error.js';

/**
 * ADR-018's query hash (`BiasMetricRecord.queryHash`): HMAC-SHA256 keyed by the user's secret over the first 100 characters
 * (code points, as the reference implementation's `query[:100]`) of the query, UTF-8 encoded,
 * as lower-case hex, truncated to its first 16 characters. There is no default secret.
 */
export function hashQuery(options: { query: string; secret: string }): string {
  if (options.secret.length === 0) {
    throw new BiasStoreError({
      code: 'INVALID_CONFIG',
      message:
        'A query hash needs a secret, and the one given is empty. Set LLM_COUNCIL_HASH_SECRET to a secret of your own.',
    });
  }
  const first100 = Array.from(options.query).slice(0, 100).join('');
  return createHmac('sha256', options.secret).update(first100, 'utf8').digest('hex').slice(0, 16);
}
