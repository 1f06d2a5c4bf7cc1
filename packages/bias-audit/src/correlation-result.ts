/** A two-sided confidence interval and the level it was computed at. */
export interface ConfidenceInterval {
  lower: number;
  upper: number;
  level: number;
}

/**
 * A correlation with its exact two-sided p-value, or the reason it cannot be computed (fewer than
 * three pairs, or a variable with no variance): never r = 0, p = 1 as a stand-in.
 */
export type CorrelationResult =
  | {
      computable: true;
      r: number;
      pValue: number;
      n: number;
      /** The Fisher-z 95% interval; null when n < 4, where its standard error 1/√(n − 3) is undefined. */
      ci95: ConfidenceInterval | null;
    }
  | { computable: false; n: number; reason: string };
