export { BiasAuditError } from './bias-audit-error.js';
export type { BiasAuditErrorCode } from './bias-audit-error.js';
export type { BiasObservation } from './bias-observation.js';
