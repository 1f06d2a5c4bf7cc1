import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { ProviderV1 } from './provider-v1.js';

/**
 * Ollama's OpenAI-compatible API (`OLLAMA_BASE_URL`, default http://127.0.0.1:11434/v1). No key; every call
 * costs 0. `maxConcurrency` defaults to 1: a local Ollama usually runs one request per model at a time
 * (`OLLAMA_NUM_PARALLEL`), so further calls wait in this provider's queue, where their deadlines have not
 * started, rather than in Ollama's. Raise it to match `OLLAMA_NUM_PARALLEL`.
 */
export function createOllama(settings: HttpProviderSettings = {}): ProviderV1 {
  return createOpenAICompatible({
    name: 'ollama',
    apiKeyEnvVar: 'OLLAMA_API_KEY',
    requireApiKey: false,
    baseURLEnvVar: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:11434/v1',
    zeroCost: true,
    maxTokensField: 'max_tokens',
    ...settings,
    maxConcurrency: settings.maxConcurrency ?? 1,
  });
}

/** The default ollama provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const ollama: ProviderV1 = createOllama();
