import { GeminiModel } from './gemini-model.js';
import { loadApiKey, loadBaseUrl } from './load-api-key.js';
import { createProviderRuntime } from './provider-runtime.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import { defineProvider } from './provider-v1.js';
import type { ProviderV1 } from './provider-v1.js';

/**
 * Google Gemini's `generateContent` (`GEMINI_API_KEY` or `GOOGLE_API_KEY`; `GEMINI_BASE_URL`, default
 * https://generativelanguage.googleapis.com/v1beta). Per call, `providerOptions.gemini` adds body
 * fields; its `generationConfig` (e.g. `thinkingConfig`) merges into the one built from the options.
 */
export function createGemini(settings: HttpProviderSettings = {}): ProviderV1 {
  const runtime = createProviderRuntime(settings);
  return defineProvider(
    'gemini',
    (modelId) =>
      new GeminiModel(modelId, {
        runtime,
        baseURL: () =>
          loadBaseUrl({
            baseURL: settings.baseURL,
            env: settings.env,
            envVar: 'GEMINI_BASE_URL',
            defaultURL: 'https://generativelanguage.googleapis.com/v1beta',
          }),
        apiKey: () =>
          loadApiKey({
            apiKey: settings.apiKey,
            env: settings.env,
            envVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
            provider: 'gemini',
            factory: 'createGemini',
          }),
        headers: () => ({ ...settings.headers }),
      }),
  );
}

/** The default Gemini provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const gemini: ProviderV1 = createGemini();
