export { BiasStoreError } from './bias-store-error.js';
export type { BiasStoreErrorCode } from './bias-store-error.js';
