import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { ProviderV1 } from './provider-v1.js';

/**
 * llama.cpp's `llama-server` through its OpenAI-compatible API (`LLAMACPP_BASE_URL`, default
 * http://127.0.0.1:8080/v1; `LLAMACPP_API_KEY` only when the server was started with `--api-key`). Every call
 * costs 0. `maxConcurrency` defaults to 1: the server decodes one request per slot and starts with one slot
 * unless given `--parallel N`, so more calls at once would only wait in its queue, their deadlines running;
 * here they wait in this provider's queue, where the deadline has not started. Raise it to the server's
 * `--parallel`.
 */
export function createLlamaCpp(settings: HttpProviderSettings = {}): ProviderV1 {
  return createOpenAICompatible({
    name: 'llamacpp',
    apiKeyEnvVar: 'LLAMACPP_API_KEY',
    requireApiKey: false,
    baseURLEnvVar: 'LLAMACPP_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:8080/v1',
    zeroCost: true,
    maxTokensField: 'max_tokens',
    ...settings,
    maxConcurrency: settings.maxConcurrency ?? 1,
  });
}

/** The default llamacpp provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const llamacpp: ProviderV1 = createLlamaCpp();
