export { ProviderError } from './provider-error.js';
export type { ProviderErrorCode } from './provider-error.js';
export type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  LanguageModelV1,
  Message,
  MessageRole,
  StreamPart,
  Usage,
} from './language-model-v1.js';
