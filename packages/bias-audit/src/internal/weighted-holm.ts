/**
 * Holm's step-down procedure with weights (Holm 1979, section 5): hypotheses are taken in order of
 * p / w; the one at step j is rejected at level α when p / w · (sum of the weights not yet rejected) ≤ α
 * and every earlier one was. Returns those adjusted p-values (running maximum, capped at 1) in input
 * order. Weights are positive and sum to 1; equal weights give plain Holm. Controls the family-wise
 * error rate at α under any dependence.
 */
export function weightedHolmAdjust(pValues: readonly number[], weights: readonly number[]): number[] {
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! / weights[a]! - pValues[b]! / weights[b]!);
  const adjusted = new Array<number>(pValues.length);
  let remaining = 1;
  let running = 0;
  for (const i of order) {
    running = Math.max(running, Math.min(1, (pValues[i]! / weights[i]!) * remaining));
    adjusted[i] = running;
    remaining -= weights[i]!;
  }
  return adjusted;
}
