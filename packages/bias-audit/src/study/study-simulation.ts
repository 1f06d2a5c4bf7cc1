import type { CouncilSimulation } from '../internal/simulate-councils.js';

/** A council to simulate, less the store size and seed that each run of a scenario sets. */
export type StudySimulation = Omit<CouncilSimulation, 'seed' | 'sessions'>;
