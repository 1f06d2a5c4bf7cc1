/** Cohen's κ of a k×k table and the pieces of its large-sample variance. */
export interface KappaVariance {
  /** (p_o − p_e)/(1 − p_e); null when p_e = 1 (both raters used one and the same category). */
  kappa: number | null;
  /** Chance agreement p_e from the table's row and column shares. */
  expected: number;
  /**
   * The variance of one pair's contribution to κ̂·(1 − p_e): A + B − C in Fleiss, Cohen & Everitt (1969), so that
   * Var(κ̂) = perPair / (n·(1 − p_e)²). Null with κ.
   */
  perPair: number | null;
}

/**
 * Fleiss, Cohen & Everitt's (1969, Psychological Bulletin 72(5), 323–327) large-sample non-null variance of Cohen's κ̂
 * from a k×k table (`table[i][j]`: pairs the first rater put in category i and the second in j; counts, which may be
 * fractional). Unlike Cohen's (1960) √(p_o(1 − p_o)/n)/(1 − p_e), it allows for the chance agreement p_e being
 * estimated from the same pairs, and moving with p_o:
 * A = Σ_i p_ii·[1 − (p_i. + p_.i)(1 − κ)]², B = (1 − κ)²·Σ_{i≠j} p_ij·(p_.i + p_j.)², C = [κ − p_e(1 − κ)]².
 * It is the variance statsmodels' `cohens_kappa` reports (`std_kappa`), as SAS's and R vcd's `Kappa` do.
 */
export function kappaVariance(table: readonly (readonly number[])[]): KappaVariance {
  const k = table.length;
  let total = 0;
  const rows = new Array<number>(k).fill(0);
  const columns = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const c = table[i]![j]!;
      total += c;
      rows[i]! += c;
      columns[j]! += c;
    }
  const p = (i: number, j: number) => table[i]![j]! / total;
  const row = (i: number) => rows[i]! / total;
  const column = (j: number) => columns[j]! / total;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    observed += p(i, i);
    expected += row(i) * column(i);
  }
  if (!(expected < 1)) return { kappa: null, expected, perPair: null };
  const kappa = (observed - expected) / (1 - expected);
  let a = 0;
  let b = 0;
  for (let i = 0; i < k; i++) {
    a += p(i, i) * (1 - (row(i) + column(i)) * (1 - kappa)) ** 2;
    for (let j = 0; j < k; j++) if (i !== j) b += p(i, j) * (column(i) + row(j)) ** 2;
  }
  const c = (kappa - expected * (1 - kappa)) ** 2;
  return { kappa, expected, perPair: Math.max(0, a + (1 - kappa) ** 2 * b - c) };
}

/**
 * Fleiss, Cohen & Everitt's (1969) standard error of κ̂ for a table of counts ({@link kappaVariance}); null where κ is
 * undefined.
 */
export function kappaStandardError(table: readonly (readonly number[])[]): number | null {
  const { expected, perPair } = kappaVariance(table);
  if (perPair === null) return null;
  const n = table.reduce((s, r) => s + r.reduce((t, c) => t + c, 0), 0);
  return Math.sqrt(perPair / n) / (1 - expected);
}
