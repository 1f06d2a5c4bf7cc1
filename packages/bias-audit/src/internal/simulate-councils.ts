import type { BiasObservation } from '../bias-observation.js';
import { createSeededRandom } from '../seeded-random.js';

/** What a simulated council looks like; the defaults are an unbiased council of 5 models and 4 reviewers. */
export interface CouncilSimulation {
  sessions: number;
  seed: number;
  models?: number;
  reviewers?: number;
  /** True correlation between response length and a response's mean score within a session. Default 0. */
  lengthCorrelation?: number;
  /** Score points added at each display position (index = position). Default none. */
  positionEffects?: readonly number[];
  /** Standard deviation of one reviewer's noise around a response's quality. Default 1. */
  reviewerNoise?: number;
  /** One shuffle per session that every reviewer sees (ADR-015's shared order) instead of one per reviewer. Default false. */
  sharedOrder?: boolean;
}

/**
 * Simulated councils for the validity tests and the benchmark. Per session: lengths L ~ N(0, 1)
 * (shown as round(1500 + 400·L) characters), quality a = ρ·L + u with Var(u) = 1 − ρ² − σ²/R so that
 * the response's mean score over R reviewers has variance 1 and correlation exactly ρ with L; score
 * = 6 + a + noise(σ) + positionEffect[shown position]; every reviewer sees its own random order (or, with `sharedOrder`, the session's one order) and
 * ranks by its own scores. Reviewers are the first R models, so self-votes occur, with no self-preference.
 */
export function simulateCouncils(spec: CouncilSimulation): BiasObservation[] {
  const models = spec.models ?? 5;
  const reviewers = spec.reviewers ?? 4;
  const rho = spec.lengthCorrelation ?? 0;
  const sigma = spec.reviewerNoise ?? 1;
  const effects = spec.positionEffects ?? [];
  const uVariance = 1 - rho * rho - (sigma * sigma) / reviewers;
  if (uVariance < 0) throw new Error('lengthCorrelation and reviewerNoise leave no room for quality variance');
  const random = createSeededRandom(spec.seed);
  const start = Date.UTC(2026, 9, 1);
  const out: BiasObservation[] = [];
  const order = Array.from({ length: models }, (_, i) => i);
  for (let s = 0; s < spec.sessions; s++) {
    const sessionId = `s${spec.seed}-${s}`;
    const timestamp = new Date(start + s * 3_600_000).toISOString();
    const lengths = order.map(() => random.normal());
    const quality = lengths.map((l) => rho * l + Math.sqrt(uVariance) * random.normal());
    for (let r = 0; r < reviewers; r++) {
      for (let i = models - 1; i > 0 && !(spec.sharedOrder === true && r > 0); i--) {
        const j = random.integer(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const scores = order.map(() => 0);
      order.forEach((candidate, position) => {
        scores[candidate] = 6 + quality[candidate]! + sigma * random.normal() + (effects[position] ?? 0);
      });
      const ranking = order.map((_, c) => c).sort((a, b) => scores[b]! - scores[a]!);
      order.forEach((candidate, position) => {
        out.push({
          sessionId,
          timestamp,
          reviewer: `model-${r}`,
          candidate: `model-${candidate}`,
          position,
          responseLengthChars: Math.max(1, Math.round(1500 + 400 * lengths[candidate]!)),
          score: scores[candidate]!,
          rankPosition: ranking.indexOf(candidate),
          configVersion: '1.0.0',
          queryCategory: null,
        });
      });
    }
  }
  return out;
}
