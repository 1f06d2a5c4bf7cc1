/** The Moore–Penrose inverse of a symmetric positive semi-definite matrix, and the projector onto its range. */
export interface SymmetricPseudoInverse {
  /** k × k, row-major. */
  inverse: Float64Array;
  /** k × k, row-major: projects a contrast onto what the data can estimate. */
  range: Float64Array;
  /** Eigenvalues kept (above the tolerance). */
  rank: number;
}

/**
 * Pseudo-inverse of a symmetric k × k matrix (row-major) by cyclic Jacobi rotations: slow for large k but
 * exact to rounding for the dozen or so parameters of a council's score model, with no dependency.
 * Eigenvalues below `relativeTolerance` × the largest count as zero (directions the data cannot identify).
 */
export function symmetricPseudoInverse(
  matrix: Float64Array,
  k: number,
  relativeTolerance = 1e-10,
): SymmetricPseudoInverse {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < k; i++) {
      diag += a[i * k + i]! ** 2;
      for (let j = i + 1; j < k; j++) off += a[i * k + j]! ** 2;
    }
    if (off <= 1e-30 * Math.max(diag, 1e-300)) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q]!;
        if (apq === 0) continue;
        const app = a[p * k + p]!;
        const aqq = a[q * k + q]!;
        // Golub & Van Loan, Algorithm 8.4.1 (symmetric Schur decomposition).
        const tau = (aqq - app) / (2 * apq);
        const t = Math.sign(tau || 1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p]!;
          const arq = a[r * k + q]!;
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r]!;
          const aqr = a[q * k + r]!;
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p]!;
          const vrq = v[r * k + q]!;
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  let largest = 0;
  for (let i = 0; i < k; i++) largest = Math.max(largest, Math.abs(a[i * k + i]!));
  const inverse = new Float64Array(k * k);
  const range = new Float64Array(k * k);
  let rank = 0;
  for (let e = 0; e < k; e++) {
    const lambda = a[e * k + e]!;
    if (!(lambda > relativeTolerance * largest)) continue;
    rank++;
    for (let i = 0; i < k; i++) {
      const vi = v[i * k + e]!;
      if (vi === 0) continue;
      for (let j = 0; j < k; j++) {
        const vij = vi * v[j * k + e]!;
        inverse[i * k + j]! += vij / lambda;
        range[i * k + j]! += vij;
      }
    }
  }
  return { inverse, range, rank };
}
