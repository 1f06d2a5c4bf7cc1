import { fnv1a } from './fnv1a.js';
import { ScoringError } from './scoring-error.js';

/**
 * The 32-bit word a one-word-seeded generator starts from: an integer seed's low 32 bits, or a string
 * seed's FNV-1a hash over its UTF-8 bytes. Throws `INVALID_OPTION`, naming `where`, for anything else.
 */
export function seedWord(seed: number | string, where: string): number {
  if (typeof seed === 'string') return fnv1a(seed);
  if (typeof seed === 'number' && Number.isInteger(seed)) return seed >>> 0;
  throw new ScoringError({
    code: 'INVALID_OPTION',
    message: `${where}: the seed must be an integer or a string, got ${String(seed)}. Pass e.g. 42 or "session-17".`,
  });
}
