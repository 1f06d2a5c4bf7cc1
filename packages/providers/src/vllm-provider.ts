import { createOpenAICompatible } from './openai-compatible-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { ProviderV1 } from './provider-v1.js';

/**
 * A vLLM server (`VLLM_BASE_URL`, default http://127.0.0.1:8000/v1; `VLLM_API_KEY` when started with --api-key).
 * Every call costs 0. `maxConcurrency` keeps the default of 16: vLLM batches concurrent requests.
 */
export function createVLLM(settings: HttpProviderSettings = {}): ProviderV1 {
  return createOpenAICompatible({
    name: 'vllm',
    apiKeyEnvVar: 'VLLM_API_KEY',
    requireApiKey: false,
    baseURLEnvVar: 'VLLM_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:8000/v1',
    zeroCost: true,
    maxTokensField: 'max_tokens',
    ...settings,
  });
}

/** The default vllm provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const vllm: ProviderV1 = createVLLM();
