import type { BiasObservation } from '../bias-observation.js';
import type { PlantedTruth } from './planted-truth.js';
import type { StudyFlag } from './study-estimator.js';

/**
 * A scenario's own generator and what it plants, for councils `simulateCouncils` does not model (issue
 * 29's messy councils). A scenario without one is simulated by `simulateCouncils` and judged by
 * `plantedFlags` and `plantedTruth` of its `simulation`.
 */
export interface ScenarioPlants {
  /** One store of the scenario. */
  simulate(spec: { sessions: number; seed: number }): BiasObservation[];
  /** The flags a correct report raises. */
  flags: readonly StudyFlag[];
  /** The truth of each estimand, or null where the scenario does not identify it (the interval is then not scored). */
  truth: PlantedTruth;
  /**
   * What kind of subject a flag names (e.g. `fair reviewer`, `harsh reviewer`, `other pair`), so false
   * flags are also counted per kind of subject (the "fair reviewers flagged GENEROUS").
   */
  kindOf(subject: string | null): string;
}
