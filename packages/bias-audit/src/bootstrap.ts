import { BiasAuditError } from './bias-audit-error.js';
import { isArrayValue } from './internal/is-array-value.js';
import type { BootstrapMethod, BootstrapResult } from './bootstrap-result.js';
import { assertLevel } from './internal/assert.js';
import { bootstrapInterval } from './internal/bootstrap-interval.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';

/** Options of `bootstrap`. */
export interface BootstrapOptions<T> {
  /** The resampling units (observations, or whole sessions for a cluster bootstrap). */
  data: readonly T[];
  /** The statistic; it receives a resample of `data` (same length, drawn with replacement). */
  statistic: (sample: readonly T[]) => number;
  /** Number of resamples. Default 1000. */
  replicates?: number;
  /** Confidence level. Default 0.95. */
  level?: number;
  /** `bca` (bias-corrected and accelerated, the default) or `percentile`. */
  method?: BootstrapMethod;
  /** Seed of the resampling; the same seed gives the same interval. Default 1. */
  seed?: number;
}

/** Checks the options shared by the bootstrap helpers and fills in the defaults. */
export function resolveBootstrapOptions(options: {
  replicates?: number;
  level?: number;
  method?: BootstrapMethod;
  seed?: number;
}): {
  replicates: number;
  level: number;
  method: BootstrapMethod;
  seed: number;
} {
  const replicates = options.replicates ?? 1000;
  if (!Number.isInteger(replicates) || replicates < 10) {
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `replicates must be an integer of at least 10 (1000 or more for a 95% interval), got ${String(replicates)}.`,
    });
  }
  const level = options.level ?? 0.95;
  assertLevel(level);
  const method = options.method ?? 'bca';
  if (method !== 'bca' && method !== 'percentile') {
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `method must be "bca" or "percentile", got ${String(method)}.`,
    });
  }
  return { replicates, level, method, seed: options.seed ?? 1 };
}

/**
 * A seeded nonparametric bootstrap interval of `statistic` over `data` (percentile or BCa, the
 * acceleration from the leave-one-out jackknife). Resamples where the statistic is not finite are
 * dropped and counted; with fewer than 2 units there is nothing to resample and the result says so.
 */
export function bootstrap<T>(options: BootstrapOptions<T>): BootstrapResult {
  const { data, statistic } = options;
  const { replicates, level, method, seed } = resolveBootstrapOptions(options);
  if (!isArrayValue(data))
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: 'data must be an array of resampling units.' });
  const n = data.length;
  if (n < 2) return { computable: false, estimate: null, reason: `needs at least 2 units to resample, got ${n}` };
  const estimate = statistic(data);
  const random = createSeededSfc32(seed);
  const values = new Float64Array(replicates);
  const sample = new Array<T>(n);
  for (let b = 0; b < replicates; b++) {
    for (let i = 0; i < n; i++) sample[i] = data[random.integer(n)]!;
    values[b] = statistic(sample);
  }
  let jackknife: number[] | undefined;
  if (method === 'bca') {
    jackknife = [];
    const rest = new Array<T>(n - 1);
    for (let leave = 0; leave < n; leave++) {
      for (let i = 0, k = 0; i < n; i++) if (i !== leave) rest[k++] = data[i]!;
      const value = statistic(rest);
      if (Number.isFinite(value)) jackknife.push(value);
    }
  }
  return bootstrapInterval({ estimate, replicates: values, level, method, ...(jackknife ? { jackknife } : {}) });
}
