import { anthropic } from './anthropic-provider.js';
import { gemini } from './gemini-provider.js';
import type { LanguageModelV1 } from './language-model-v1.js';
import { llamacpp } from './llamacpp-provider.js';
import { lmstudio } from './lmstudio-provider.js';
import { ollama } from './ollama-provider.js';
import { openai } from './openai-provider.js';
import { openrouter } from './openrouter-provider.js';
import { createProviderRegistry } from './provider-registry.js';
import type { ProviderRegistry } from './provider-registry.js';
import { simulated } from './simulated-provider.js';
import { vllm } from './vllm-provider.js';

/**
 * The registry `resolveModel` uses by default: openrouter (also for ids without a prefix), openai,
 * anthropic, gemini, ollama, vllm, lmstudio, llamacpp and simulated. `register` adds custom providers.
 */
export const defaultProviderRegistry: ProviderRegistry = createProviderRegistry({
  providers: [openrouter, openai, anthropic, gemini, ollama, vllm, lmstudio, llamacpp, simulated],
  defaultProvider: 'openrouter',
});

/**
 * A model from its id: `openrouter:x/y`, `ollama:llama3.2`, `llamacpp:qwen3-8b`, `anthropic:claude-…`, `gemini:…`,
 * `simulated:ada`, or a bare `x/y` (OpenRouter).
 */
export function resolveModel(id: string, options: { registry?: ProviderRegistry } = {}): LanguageModelV1 {
  return (options.registry ?? defaultProviderRegistry).languageModel(id);
}
