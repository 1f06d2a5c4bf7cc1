import { detectQueryCategory } from './query-category.js';
import { detectQueryLanguage } from './query-language.js';
import { tokenCountBucket } from './token-count-bucket.js';

/**
 * ADR-018 v1.1's query metadata (`BiasMetricRecord.queryMetadata`): what a record may say about the query — never the query itself.
 * Fields are nullable because files written by other implementations may lack them.
 */
export interface QueryMetadata {
  /** `coding`, `math`, `writing`, `analysis` or `general` when written here; other strings when read from elsewhere. */
  category: string | null;
  /** `0-100`, `100-500`, `500-1000`, `1000-5000` or `5000+` when written here (estimated tokens). */
  tokenCountBucket: string | null;
  /** ISO 639-1 code or `und`. */
  language: string | null;
}

/** Derives the query metadata (category, token bucket, language) from the query, keeping none of its text. */
export function deriveQueryMetadata(query: string): QueryMetadata {
  return {
    category: detectQueryCategory(query),
    tokenCountBucket: tokenCountBucket(query),
    language: detectQueryLanguage(query),
  };
}
