import type { LanguageModelV1, ProviderV1, SimulatedSettings } from '@council/providers';
import {
  createAnthropic,
  createGemini,
  createLlamaCpp,
  createLMStudio,
  createOllama,
  createOpenAI,
  createOpenRouter,
  createProviderRegistry,
  createSimulated,
  createVLLM,
} from '@council/providers';
import type { EndpointConcurrency } from './endpoint-concurrency.js';
import { omitUndefined } from './omit-undefined.js';
import type { Env } from './settings/council-settings.js';
import type { ConfiguredProvider } from './settings/provider-variables.js';
import { PROVIDER_VARIABLES } from './settings/provider-variables.js';

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Turns model ids into models with the providers configured from `env` (the same variables the
 * providers read themselves, so a test's environment never leaks into another's). Bare ids go to
 * OpenRouter; `simulated:<name>` to the offline provider with `simulated` settings. `concurrency` sets each
 * HTTP provider's calls in flight at once: `byProvider[name]`, else `default`, else the provider's own
 * default (16; 1 for ollama, lmstudio and llamacpp).
 */
export function createModelResolver(options: {
  env: Env;
  simulated?: SimulatedSettings;
  maxRetries?: number;
  maxResponseBytes?: number;
  concurrency?: EndpointConcurrency;
}): (id: string) => LanguageModelV1 {
  const { env } = options;
  // Each provider's key (the first of its key variables that is set) and base URL, from the one table.
  const http = (provider: ConfiguredProvider) => {
    const row = PROVIDER_VARIABLES.find((p) => p.provider === provider)!;
    const apiKey = row.keyVariables.map((name) => setting(env, name)).find((value) => value !== undefined);
    const baseURL = setting(env, row.baseUrlVariable);
    const maxConcurrency = options.concurrency?.byProvider?.[provider] ?? options.concurrency?.default;
    return omitUndefined({
      apiKey,
      baseURL,
      maxRetries: options.maxRetries,
      // A reply past it is cut off unread and its member excluded ("reply too large"): config.yaml's max_reply_bytes.
      maxResponseBytes: options.maxResponseBytes,
      maxConcurrency,
    });
  };
  const providers: ProviderV1[] = [
    createOpenRouter(http('openrouter')),
    createOpenAI(http('openai')),
    createAnthropic(http('anthropic')),
    createGemini(http('gemini')),
    createOllama(http('ollama')),
    createVLLM(http('vllm')),
    createLMStudio(http('lmstudio')),
    createLlamaCpp(http('llamacpp')),
    createSimulated(options.simulated ?? {}),
  ];
  const registry = createProviderRegistry({ providers, defaultProvider: 'openrouter' });
  return (id) => registry.languageModel(id);
}
