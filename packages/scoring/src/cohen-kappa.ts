import { ScoringError } from './scoring-error.js';

/** Options of {@link cohenKappa}. */
export interface CohenKappaOptions {
  /**
   * The categories, in their order (which matters only for weighted κ). Default: every value the two raters gave,
   * sorted (numbers ascending, strings by code unit). A value outside a given list is an `INVALID_OPTION`.
   */
  categories?: readonly (string | number)[];
  /**
   * `none` (default): nominal κ, any disagreement counts fully. `linear` / `quadratic`: weighted κ for ordered
   * categories, a disagreement of d steps among k categories costing d/(k−1) or (d/(k−1))² (scikit-learn's weights).
   */
  weights?: 'none' | 'linear' | 'quadratic';
}

/** Cohen's κ and the agreement it is made of. */
export interface CohenKappaResult {
  /** (p_o − p_e) / (1 − p_e): 1 = perfect agreement, 0 = what chance gives, below 0 = worse than chance. Null when p_e = 1 (both raters used one and the same category: κ is undefined). */
  kappa: number | null;
  /** Observed agreement p_o: the share of items the two raters put in the same category (weighted: 1 − mean disagreement weight). */
  observed: number;
  /** Agreement p_e expected by chance from the two raters' own category shares. */
  expected: number;
  /** Items rated by both. */
  n: number;
}

const defaultOrder = (a: string | number, b: string | number): number =>
  typeof a === 'number' && typeof b === 'number'
    ? a - b
    : typeof a === 'number'
      ? -1
      : typeof b === 'number'
        ? 1
        : a < b
          ? -1
          : a > b
            ? 1
            : 0;

/**
 * Cohen's κ between two raters who each put the same n items in one of k categories (`a[i]` and `b[i]` are the two
 * ratings of item i): κ = (p_o − p_e) / (1 − p_e), with p_o the observed and p_e the chance agreement from the raters'
 * marginal shares (Cohen 1960; weighted, Cohen 1968). Matches `sklearn.metrics.cohen_kappa_score`. Throws
 * `INSUFFICIENT_DATA` for no items and `INVALID_OPTION` for arrays of different lengths or a value that is not a
 * finite number or a string.
 */
export function cohenKappa(
  a: readonly (string | number)[],
  b: readonly (string | number)[],
  options: CohenKappaOptions = {},
): CohenKappaResult {
  const where = 'cohenKappa';
  if (a.length !== b.length)
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: the two raters must rate the same items (got ${a.length} and ${b.length} ratings); pass one rating per item from each, in the same order.`,
    });
  if (a.length === 0)
    throw new ScoringError({
      code: 'INSUFFICIENT_DATA',
      message: `${where}: no items; κ needs at least one item rated by both.`,
    });
  for (const v of [...a, ...b])
    if (!(typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))))
      throw new ScoringError({
        code: 'INVALID_OPTION',
        message: `${where}: a rating must be a string or a finite number, got ${String(v)}.`,
      });
  const categories = options.categories ?? [...new Set([...a, ...b])].sort(defaultOrder);
  const index = new Map(categories.map((c, i) => [c, i]));
  if (index.size !== categories.length)
    throw new ScoringError({ code: 'INVALID_OPTION', message: `${where}: options.categories names a category twice.` });
  const k = categories.length;
  const n = a.length;
  const table = new Float64Array(k * k);
  for (let i = 0; i < n; i++) {
    const x = index.get(a[i]!);
    const y = index.get(b[i]!);
    if (x === undefined || y === undefined)
      throw new ScoringError({
        code: 'INVALID_OPTION',
        message: `${where}: rating ${String(x === undefined ? a[i] : b[i])} of item ${i} is not among options.categories.`,
      });
    table[x * k + y]!++;
  }
  const weights = options.weights ?? 'none';
  const cost = (x: number, y: number): number => {
    if (x === y) return 0;
    if (weights === 'none') return 1;
    const d = Math.abs(x - y) / (k - 1);
    return weights === 'linear' ? d : d * d;
  };
  const rows = new Float64Array(k);
  const columns = new Float64Array(k);
  for (let x = 0; x < k; x++)
    for (let y = 0; y < k; y++) {
      rows[x]! += table[x * k + y]!;
      columns[y]! += table[x * k + y]!;
    }
  let observedCost = 0;
  let expectedCost = 0;
  for (let x = 0; x < k; x++)
    for (let y = 0; y < k; y++) {
      const w = cost(x, y);
      observedCost += (w * table[x * k + y]!) / n;
      expectedCost += (w * rows[x]! * columns[y]!) / (n * n);
    }
  const observed = 1 - observedCost;
  const expected = 1 - expectedCost;
  return { kappa: expectedCost > 0 ? 1 - observedCost / expectedCost : null, observed, expected, n };
}
