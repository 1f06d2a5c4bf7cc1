export { ProviderError } from './provider-error.js';
export type { ProviderErrorCode } from './provider-error.js';
