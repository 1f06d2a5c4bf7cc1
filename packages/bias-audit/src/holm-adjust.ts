import { BiasAuditError } from './bias-audit-error.js';

/**
 * Holm's step-down adjustment: the i-th smallest of m p-values becomes max over j ≤ i of
 * min(1, (m − j + 1)·p₍ⱼ₎). Rejecting where the adjusted value is ≤ α keeps the family-wise
 * error rate at α under any dependence. Returns the adjusted values in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const [i, p] of pValues.entries()) {
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
      throw new BiasAuditError({
        code: 'INVALID_INPUT',
        message: `pValues[${i}] is ${String(p)}; p-values must lie in [0, 1].`,
      });
    }
  }
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]!);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]!));
    adjusted[index] = running;
  });
  return adjusted;
}
