import type { LanguageModelV1, ProviderV1, SimulatedSettings } from '@council/providers';
import {
  createAnthropic,
  createGemini,
  createLMStudio,
  createOllama,
  createOpenAI,
  createOpenRouter,
  createProviderRegistry,
  createSimulated,
  createVLLM,
} from '@council/providers';
import type { Env } from './settings/council-settings.js';

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Turns model ids into models with the providers configured from `env` (the same variables the
 * providers read themselves, so a test's environment never leaks into another's). Bare ids go to
 * OpenRouter; `simulated:<name>` to the offline provider with `simulated` settings.
 */
export function createModelResolver(options: { env: Env; simulated?: SimulatedSettings; maxRetries?: number; maxResponseBytes?: number }): (id: string) => LanguageModelV1 {
  const { env } = options;
  const http = (keyVar: string | null, baseVar: string) => ({
    ...(keyVar && setting(env, keyVar) ? { apiKey: setting(env, keyVar) } : {}),
    ...(setting(env, baseVar) ? { baseURL: setting(env, baseVar) } : {}),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    // A reply past it is cut off unread and its member excluded ("reply too large"): config.yaml's max_reply_bytes.
    ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
  });
  const providers: ProviderV1[] = [
    createOpenRouter(http('OPENROUTER_API_KEY', 'OPENROUTER_BASE_URL')),
    createOpenAI(http('OPENAI_API_KEY', 'OPENAI_BASE_URL')),
    createAnthropic(http('ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL')),
    createGemini({ ...http('GEMINI_API_KEY', 'GEMINI_BASE_URL'), ...(!setting(env, 'GEMINI_API_KEY') && setting(env, 'GOOGLE_API_KEY') ? { apiKey: setting(env, 'GOOGLE_API_KEY') } : {}) }),
    createOllama(http(null, 'OLLAMA_BASE_URL')),
    createVLLM(http(null, 'VLLM_BASE_URL')),
    createLMStudio(http(null, 'LMSTUDIO_BASE_URL')),
    createSimulated(options.simulated ?? {}),
  ];
  const registry = createProviderRegistry({ providers, defaultProvider: 'openrouter' });
  return (id) => registry.languageModel(id);
}
