export { ScoringError } from './scoring-error.js';
export type { ScoringErrorCode } from './scoring-error.js';
