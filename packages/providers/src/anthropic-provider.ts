import { AnthropicMessagesModel } from './anthropic-messages-model.js';
import { loadApiKey, loadBaseUrl } from './load-api-key.js';
import { createProviderRuntime } from './provider-runtime.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import { defineProvider } from './provider-v1.js';
import type { ProviderV1 } from './provider-v1.js';

export interface AnthropicSettings extends HttpProviderSettings {
  /** `max_tokens` sent when a call gives no `maxTokens` (the API requires one). Default 4096. */
  defaultMaxTokens?: number;
}

/**
 * Anthropic's Messages API (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, default https://api.anthropic.com/v1),
 * `anthropic-version: 2023-06-01`. Per call, `providerOptions.anthropic` adds body fields (e.g. `thinking`).
 */
export function createAnthropic(settings: AnthropicSettings = {}): ProviderV1 {
  const runtime = createProviderRuntime(settings);
  return defineProvider(
    'anthropic',
    (modelId) =>
      new AnthropicMessagesModel(modelId, {
        runtime,
        defaultMaxTokens: settings.defaultMaxTokens ?? 4096,
        baseURL: () =>
          loadBaseUrl({
            baseURL: settings.baseURL,
            env: settings.env,
            envVar: 'ANTHROPIC_BASE_URL',
            defaultURL: 'https://api.anthropic.com/v1',
          }),
        apiKey: () =>
          loadApiKey({
            apiKey: settings.apiKey,
            env: settings.env,
            envVars: ['ANTHROPIC_API_KEY'],
            provider: 'anthropic',
            factory: 'createAnthropic',
          }),
        headers: () => ({ ...settings.headers }),
      }),
  );
}

/** The default Anthropic provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const anthropic: ProviderV1 = createAnthropic();
