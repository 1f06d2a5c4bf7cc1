import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { ProviderV1 } from './provider-v1.js';

/** LM Studio's local server (`LMSTUDIO_BASE_URL`, default http://127.0.0.1:1234/v1). No key; every call costs 0. */
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
  });
}

/** The default lmstudio provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const lmstudio: ProviderV1 = createLMStudio();
