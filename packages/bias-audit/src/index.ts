export { BiasAuditError } from './bias-audit-error.js';
export type { BiasAuditErrorCode } from './bias-audit-error.js';
