export { CouncilError } from './council-error.js';
export type { CouncilErrorCode } from './council-error.js';
