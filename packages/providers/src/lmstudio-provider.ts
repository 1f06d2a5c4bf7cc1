import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { ProviderV1 } from './provider-v1.js';

/**
 * LM Studio's local server (`LMSTUDIO_BASE_URL`, default http://127.0.0.1:1234/v1). No key; every call costs 0.
 * `maxConcurrency` defaults to 1: a loaded model answers one request at a time, so further calls wait in this
 * provider's queue, where their deadlines have not started. Raise it if the server runs requests in parallel.
 */
export function createLMStudio(settings: HttpProviderSettings = {}): ProviderV1 {
  return createOpenAICompatible({
    name: 'lmstudio',
    apiKeyEnvVar: 'LMSTUDIO_API_KEY',
    requireApiKey: false,
    baseURLEnvVar: 'LMSTUDIO_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:1234/v1',
    zeroCost: true,
    maxTokensField: 'max_tokens',
    ...settings,
    maxConcurrency: settings.maxConcurrency ?? 1,
  });
}

/** The default lmstudio provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const lmstudio: ProviderV1 = createLMStudio();
