import { ScoringError } from './scoring-error.js';

/** Validates the `bootstrap` (replicate count) and `seed` options shared by the resampling functions. */
export function readBootstrapOptions(
  options: { bootstrap?: number; seed?: number | string },
  where: string,
): { bootstrap: number; seed: number | string } {
  if (typeof options !== 'object' || options === null) {
    throw new ScoringError({ code: 'INVALID_OPTION', message: `${where}: options must be an object (or left out).` });
  }
  const bootstrap = options.bootstrap ?? 1000;
  if (!Number.isSafeInteger(bootstrap) || bootstrap < 0) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: options.bootstrap must be a whole number of replicates ≥ 0 (default 1000), got ${String(bootstrap)}.`,
    });
  }
  const seed = options.seed ?? 0;
  if (typeof seed !== 'string' && !Number.isSafeInteger(seed)) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: options.seed must be a safe integer or a string, got ${String(seed)}.`,
    });
  }
  return { bootstrap, seed };
}
