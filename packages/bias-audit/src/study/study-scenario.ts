import type { ScenarioPlants } from './scenario-plants.js';
import type { StudySimulation } from './study-simulation.js';

/** A target for a rate: at least `min`, at most `max` (shares in [0, 1]). */
export interface StudyTarget {
  min?: number;
  max?: number;
}

/** One scenario of the validity study: a simulated council, the store size, how many runs, and the targets. */
export interface StudyScenario {
  /** Kebab-case, for `--scenario`. */
  name: string;
  description: string;
  /** Sessions in each simulated store. */
  sessions: number;
  /** Runs (stores) in the full study. */
  runs: number;
  /** Run i simulates and resamples with seed `seed + i`. */
  seed: number;
  simulation: StudySimulation;
  /** Its own generator, flags and truths (issue 29's messy councils); left out, `simulateCouncils` of `simulation`. */
  plants?: ScenarioPlants;
  /** The targets; a metric without one is reported only. */
  targets?: {
    /** Share of runs whose flags are exactly the planted ones. */
    exactlyPlanted?: StudyTarget;
    /** Share of runs with a flag that was not planted. */
    anyOtherFlag?: StudyTarget;
    /** Share of runs with any flag (for scenarios that plant none). */
    anyFlag?: StudyTarget;
    /** Per planted flag (`CODE` or `CODE(subject)`): share of runs that raise it (power). */
    detected?: Record<string, StudyTarget>;
    /** Per flag code: share of runs that raise it for a subject where nothing was planted. */
    falseFlags?: Record<string, StudyTarget>;
    /** Share of runs whose between-session length interval excludes 0. */
    betweenSession?: StudyTarget;
    /** Coverage of every interval; default 93.5–96.5% (the window at 20 and 50 sessions); null reports coverage without a target. */
    coverage?: StudyTarget | null;
  };
}
