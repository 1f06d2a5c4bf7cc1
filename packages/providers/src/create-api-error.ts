import { APICallError } from './api-call-error.js';
import { AuthenticationError } from './authentication-error.js';
import { ContextLengthError } from './context-length-error.js';
import { InsufficientCreditsError } from './insufficient-credits-error.js';
import { isContextLengthExceeded } from './is-context-length-exceeded.js';
import { isStructuredOutputRefusal } from './is-structured-output-refusal.js';
import { ModelNotFoundError } from './model-not-found-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { retryableStatuses } from './retry-policy.js';
import { StructuredOutputUnsupportedError } from './structured-output-unsupported-error.js';
import { omitUndefined } from './internal/omit-undefined.js';

/** Hosted APIs, whose context window the user cannot change: the advice names only the model. */
const hostedProviders = new Set(['openrouter', 'openai', 'anthropic', 'gemini']);

/** How to give a local server's model a larger context window, by provider. */
const largerContext: Partial<Record<string, string>> = {
  llamacpp: 'restart llama-server with a larger context (-c / --ctx-size)',
  ollama: 'give the model a larger context (the num_ctx parameter, or OLLAMA_CONTEXT_LENGTH for the whole server)',
  vllm: 'restart vLLM with a larger --max-model-len',
  lmstudio: "load the model with a larger context length (LM Studio's context length setting)",
};

function contextAdvice(provider: string): string {
  const server = hostedProviders.has(provider)
    ? ''
    : `${largerContext[provider] ?? "start the server with a larger context (llama.cpp -c, Ollama num_ctx or OLLAMA_CONTEXT_LENGTH, vLLM --max-model-len, LM Studio's context length setting)"}; `;
  return `Choose a model with a longer context; ${server}or use fewer council members or a shorter question (the review prompt holds every member's answer).`;
}

/**
 * The typed error for an HTTP failure status. `detail` is the provider's own message (already
 * free of secrets); `keyHint` tells the user where the key comes from, e.g. "OPENROUTER_API_KEY".
 */
export function createApiError(options: {
  provider: string;
  modelId: string;
  url: string;
  statusCode: number;
  detail: string | undefined;
  responseBody: string | undefined;
  retryAfterMs?: number;
  keyHint: string;
  /** The request asked for structured output (`responseFormat`): a refusal of it is recognised. */
  structuredOutput?: boolean;
}): APICallError {
  const { provider, modelId, url, statusCode, responseBody } = options;
  const said = options.detail ? `: ${options.detail}` : '';
  const base = { provider, url, statusCode, responseBody, modelId };
  const text = `${options.detail ?? ''}\n${responseBody ?? ''}`;
  if (isContextLengthExceeded({ statusCode, text })) {
    const words = options.detail ?? responseBody?.slice(0, 300);
    return new ContextLengthError({
      ...base,
      message: `The context window of ${modelId} is too small for this prompt (${provider}, HTTP ${statusCode}${words ? `: "${words}"` : ''}). ${contextAdvice(provider)}`,
    });
  }
  if (options.structuredOutput === true && isStructuredOutputRefusal({ statusCode, text })) {
    return new StructuredOutputUnsupportedError({
      ...base,
      message: `${provider} refused structured output (a reply held to a JSON schema) for ${modelId} at ${new URL(url).origin} (HTTP ${statusCode}${said}). The council falls back to text reviews for this model, and will not ask this server for structured output for ${modelId} again in this process; for structured reviews, use a server or model that supports it.`,
    });
  }
  switch (statusCode) {
    case 401:
      return new AuthenticationError({
        ...base,
        message: `${provider} refused the API key for ${modelId} (HTTP 401${said}). Check ${options.keyHint}: the key may be wrong, expired or revoked.`,
      });
    case 403:
      return new AuthenticationError({
        ...base,
        message: `${provider} refused access to ${modelId} (HTTP 403${said}). The key (${options.keyHint}) may lack permission for this model, or a moderation or guardrail rule blocked the input.`,
      });
    case 402:
      return new InsufficientCreditsError({
        ...base,
        message: `${provider} has no credits left to run ${modelId} (HTTP 402${said}). Add credits to the account, lower maxTokens, or choose a cheaper model.`,
      });
    case 404:
      return new ModelNotFoundError({
        ...base,
        message: `${provider} does not serve the model "${modelId}" (HTTP 404${said}). Check the model id (stale ids are common after a provider retires a model) and the base URL ${new URL(url).origin}.`,
      });
    case 429:
      return new RateLimitError({
        ...base,
        ...omitUndefined({ retryAfterMs: options.retryAfterMs }),
        message: `${provider} rate-limited the call to ${modelId} (HTTP 429${said})${options.retryAfterMs === undefined ? '' : `; it asked to wait ${Math.ceil(options.retryAfterMs / 1000)} s`}. Lower requestsPerMinute or maxConcurrency, or retry later.`,
      });
    default: {
      const isRetryable = retryableStatuses.has(statusCode);
      const what =
        statusCode === 529 ? 'is overloaded' : statusCode >= 500 ? 'failed on its side' : 'rejected the request';
      const advice = isRetryable
        ? 'This is usually temporary: retry later, or allow more retries (maxRetries; in the council CLI, --retries N or retries: N in config.yaml).'
        : 'Check the request options (messages, maxTokens, provider options).';
      return new APICallError({
        ...base,
        isRetryable,
        message: `${provider} ${what} for ${modelId} (HTTP ${statusCode}${said}). ${advice}`,
      });
    }
  }
}
