// The model interface (types only, versioned).
export type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  JsonSchema,
  LanguageModelV1,
  Message,
  MessageRole,
  ResponseFormat,
  StreamPart,
  Usage,
} from './language-model-v1.js';
export type { ProviderV1 } from './provider-v1.js';
export type {
  CouncilCallContext,
  CouncilCallStage,
  CouncilMemberAnswer,
  CouncilReviewedResponse,
} from './council-call-context.js';

// Errors.
export { ProviderError } from './provider-error.js';
export type { ProviderErrorCode } from './provider-error.js';
export { APICallError } from './api-call-error.js';
export type { APICallErrorOptions } from './api-call-error.js';
export { AuthenticationError } from './authentication-error.js';
export { InsufficientCreditsError } from './insufficient-credits-error.js';
export { ModelNotFoundError } from './model-not-found-error.js';
export { RateLimitError } from './rate-limit-error.js';
export { TimeoutError } from './timeout-error.js';
export { InvalidResponseError } from './invalid-response-error.js';
export { EmptyResponseError } from './empty-response-error.js';
export { ResponseTooLargeError } from './response-too-large-error.js';
export { ContextLengthError } from './context-length-error.js';
export { StructuredOutputUnsupportedError } from './structured-output-unsupported-error.js';
export type { EmptyResponseReason } from './empty-response-error.js';

// Providers.
export type { HttpProviderSettings } from './provider-runtime.js';
export { defaultMaxResponseBytes } from './provider-runtime.js';
export type { RetryPolicy } from './retry-policy.js';
export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export { createOpenRouter, openrouter } from './openrouter-provider.js';
export type { OpenRouterSettings } from './openrouter-provider.js';
export { createOpenAICompatible } from './openai-compatible-provider.js';
export type { OpenAICompatibleSettings } from './openai-compatible-provider.js';
export { createOpenAI, openai } from './openai-provider.js';
export { createOllama, ollama } from './ollama-provider.js';
export { createVLLM, vllm } from './vllm-provider.js';
export { createLMStudio, lmstudio } from './lmstudio-provider.js';
export { createLlamaCpp, llamacpp } from './llamacpp-provider.js';
export { createAnthropic, anthropic } from './anthropic-provider.js';
export type { AnthropicSettings } from './anthropic-provider.js';
export { createGemini, gemini } from './gemini-provider.js';
export { parseRetryAfter } from './parse-retry-after.js';

// Secrets in text and URLs: the one scrubbing function, and a base URL's query string and credentials.
export { isSecretParameter, scrubSecrets } from './scrub-secrets.js';
export { endpointUrl, takeUrlCredentials } from './url-credentials.js';

// Model ids.
export { createProviderRegistry } from './provider-registry.js';
export type { ProviderRegistry } from './provider-registry.js';
export { defaultProviderRegistry, resolveModel } from './resolve-model.js';

// The offline simulated provider.
export { createSimulated, simulated } from './simulated-provider.js';
export type { SimulatedSettings } from './simulated-provider.js';
export type { SimulatedProviderOptions } from './simulated-provider-options.js';
export { defaultSimulatedPersonas } from './simulated-persona.js';
export type { SimulatedBiases, SimulatedPersona, SimulatedPersonaSettings } from './simulated-persona.js';
