import { loadApiKey, loadBaseUrl } from './load-api-key.js';
import { OpenAICompatibleChatModel } from './openai-compatible-chat-model.js';
import { createProviderRuntime } from './provider-runtime.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import { defineProvider } from './provider-v1.js';
import type { ProviderV1 } from './provider-v1.js';
import { omitUndefined } from './internal/omit-undefined.js';

export interface OpenRouterSettings extends HttpProviderSettings {
  /** Sent as `X-Title`, so the app shows in OpenRouter's rankings. Default `Council`. */
  appName?: string;
  /** Sent as `HTTP-Referer`. Default the package's npm page. */
  appUrl?: string;
  /** Default provider routing for every call, e.g. `{ sort: 'price', allow_fallbacks: true }`. */
  provider?: Record<string, unknown>;
  /** Default reasoning options, e.g. `{ effort: 'low' }` or `{ max_tokens: 2000 }`. */
  reasoning?: Record<string, unknown>;
  /** Fallback models tried in order when the first is unavailable. */
  models?: readonly string[];
}

/**
 * OpenRouter (`OPENROUTER_API_KEY`, `OPENROUTER_BASE_URL`, default https://openrouter.ai/api/v1).
 * Per call, `providerOptions.openrouter` adds or overrides body fields (`provider`, `reasoning`, `models`, …).
 */
export function createOpenRouter(settings: OpenRouterSettings = {}): ProviderV1 {
  const runtime = createProviderRuntime(settings);
  return defineProvider(
    'openrouter',
    (modelId) =>
      new OpenAICompatibleChatModel(modelId, {
        provider: 'openrouter',
        runtime,
        keyHint: 'OPENROUTER_API_KEY (or the apiKey setting)',
        baseURL: () =>
          loadBaseUrl({
            baseURL: settings.baseURL,
            env: settings.env,
            envVar: 'OPENROUTER_BASE_URL',
            defaultURL: 'https://openrouter.ai/api/v1',
          }),
        apiKey: () =>
          loadApiKey({
            apiKey: settings.apiKey,
            env: settings.env,
            envVars: ['OPENROUTER_API_KEY'],
            provider: 'openrouter',
            factory: 'createOpenRouter',
          }),
        headers: () => ({
          'HTTP-Referer': settings.appUrl ?? 'https://www.npmjs.com/package/@council/providers',
          'X-Title': settings.appName ?? 'Council',
          ...settings.headers,
        }),
        extraBody: () => ({
          // Asks for the cost and token details in `usage` (OpenRouter's usage accounting).
          usage: { include: true },
          ...omitUndefined({ provider: settings.provider, reasoning: settings.reasoning }),
          ...(settings.models === undefined ? {} : { models: [...settings.models] }),
        }),
      }),
  );
}

/** The default OpenRouter provider, with the default base URL and no environment: pass `apiKey` or `env` to the factory for a configured one. */
export const openrouter: ProviderV1 = createOpenRouter();
