import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { ProviderV1 } from './provider-v1.js';

/** OpenAI chat completions (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, default https://api.openai.com/v1). */
export function createOpenAI(settings: HttpProviderSettings = {}): ProviderV1 {
  return createOpenAICompatible({
    name: 'openai',
    apiKeyEnvVar: 'OPENAI_API_KEY',
    requireApiKey: true,
    baseURLEnvVar: 'OPENAI_BASE_URL',
    defaultBaseURL: 'https://api.openai.com/v1',
    zeroCost: false,
    maxTokensField: 'max_completion_tokens',
    ...settings,
  });
}

/** The default openai provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const openai: ProviderV1 = createOpenAI();
