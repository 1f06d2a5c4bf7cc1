/** ADR-018's token count buckets (`QueryMetadata.tokenCountBucket`) (the ADR's example is `"100-500"`); lower bound inclusive, upper exclusive. */
export const tokenCountBuckets: readonly ['0-100', '100-500', '500-1000', '1000-5000', '5000+'] = [
  '0-100',
  '100-500',
  '500-1000',
  '1000-5000',
  '5000+',
];

export type TokenCountBucket = (typeof tokenCountBuckets)[number];

/**
 * Estimates the query's token count as ⌈characters / 4⌉ (code points; the usual rule of thumb for
 * English with BPE tokenisers) and returns its bucket. No tokeniser is loaded and the text is not kept.
 */
export function tokenCountBucket(query: string): TokenCountBucket {
  let codePoints = 0;
  for (const _ of query) codePoints++;
  const tokens = Math.ceil(codePoints / 4);
  if (tokens < 100) return '0-100';
  if (tokens < 500) return '100-500';
  if (tokens < 1000) return '500-1000';
  if (tokens < 5000) return '1000-5000';
  return '5000+';
}
