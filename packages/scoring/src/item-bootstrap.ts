import { readBootstrapOptions } from './bootstrap-options.js';
import { createRng } from './create-rng.js';
import { quantileSorted } from './quantile.js';
import { ScoringError } from './scoring-error.js';

/** Options of {@link itemBootstrap}. */
export interface ItemBootstrapOptions {
  /** Replicates. Default 1000. */
  bootstrap?: number;
  /** Seed of the resampling. Default 0. */
  seed?: number | string;
  /** Coverage of the interval. Default 0.95. */
  level?: number;
}

/** A percentile bootstrap interval over items. */
export interface ItemBootstrapResult {
  /** The statistic on the items as given; null when it is undefined there. */
  estimate: number | null;
  /** The percentile interval; null when fewer than half the replicates gave a value (or none were asked for). */
  interval: { lower: number; upper: number } | null;
  /** Replicates in which the statistic was defined (a resample can, e.g., leave a rater with one category). */
  replicates: number;
}

/**
 * The percentile bootstrap over items: draws `items` indices with replacement `bootstrap` times, applies `statistic`
 * to each draw (it returns null where undefined, and such replicates are left out) and reads the interval's ends at
 * (1 − level)/2 and (1 + level)/2 with {@link quantileSorted}. `statistic` receives the drawn indices (repeats
 * included), so paired and per-item figures — accuracy, κ, ρ, a paired difference — are all resampled by item.
 */
export function itemBootstrap(
  items: number,
  statistic: (indices: readonly number[]) => number | null,
  options: ItemBootstrapOptions = {},
): ItemBootstrapResult {
  const where = 'itemBootstrap';
  const { bootstrap, seed } = readBootstrapOptions(options, where);
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1))
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: options.level must lie in (0, 1), got ${String(level)}.`,
    });
  if (!Number.isSafeInteger(items) || items < 0)
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: items must be a whole number ≥ 0, got ${String(items)}.`,
    });
  const all = Array.from({ length: items }, (_, i) => i);
  const estimate = items === 0 ? null : statistic(all);
  if (items === 0 || bootstrap === 0) return { estimate, interval: null, replicates: 0 };
  const rng = createRng(seed);
  const values: number[] = [];
  const draw = new Array<number>(items);
  for (let r = 0; r < bootstrap; r++) {
    for (let k = 0; k < items; k++) draw[k] = rng.nextInt(items);
    const value = statistic(draw);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  values.sort((x, y) => x - y);
  const interval =
    values.length * 2 < bootstrap
      ? null
      : { lower: quantileSorted(values, (1 - level) / 2), upper: quantileSorted(values, (1 + level) / 2) };
  return { estimate, interval, replicates: values.length };
}
