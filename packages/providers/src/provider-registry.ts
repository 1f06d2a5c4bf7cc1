import type { LanguageModelV1 } from './language-model-v1.js';
import { ProviderError } from './provider-error.js';
import type { ProviderV1 } from './provider-v1.js';

/** Providers by name, and the rule that turns a model id string into a model. */
export interface ProviderRegistry {
  /** Adds (or replaces) a provider under its name. */
  register(provider: ProviderV1): void;
  get(name: string): ProviderV1 | undefined;
  names(): string[];
  /**
   * `provider:model` uses that provider (`ollama:llama3.2`, `simulated:ada`); an id without a
   * provider prefix (`anthropic/claude-opus-4.6`, `meta-llama/llama-3.2-3b-instruct:free`) goes to the
   * default provider. An unknown prefix is an error that lists the known ones.
   */
  languageModel(id: string): LanguageModelV1;
}

const prefixed = /^([a-z][a-z0-9-]*):(.*)$/;

export function createProviderRegistry(
  options: { providers?: readonly ProviderV1[]; defaultProvider?: string } = {},
): ProviderRegistry {
  const providers = new Map<string, ProviderV1>();
  for (const p of options.providers ?? []) providers.set(p.name, p);
  const registry: ProviderRegistry = {
    register(provider) {
      providers.set(provider.name, provider);
    },
    get: (name) => providers.get(name),
    names: () => [...providers.keys()].sort(),
    languageModel(id) {
      const trimmed = id.trim();
      if (trimmed === '')
        throw new ProviderError({
          code: 'INVALID_SETTINGS',
          message:
            'A model id is empty. Give one like "openrouter:anthropic/claude-opus-4.6", "ollama:llama3.2" or "simulated:ada".',
        });
      const match = prefixed.exec(trimmed);
      if (match) {
        const [, name, modelId] = match as unknown as [string, string, string];
        const provider = providers.get(name);
        if (provider) {
          if (modelId.trim() === '')
            throw new ProviderError({
              code: 'INVALID_SETTINGS',
              message: `The model id "${id}" names the provider ${name} but no model. Write it as "${name}:<model>".`,
            });
          return provider.languageModel(modelId);
        }
        throw new ProviderError({
          code: 'UNKNOWN_PROVIDER',
          message: `The model id "${id}" names an unknown provider "${name}". Known providers: ${registry.names().join(', ')}; register a custom one with createOpenAICompatible() and registry.register().`,
        });
      }
      const fallback = options.defaultProvider === undefined ? undefined : providers.get(options.defaultProvider);
      if (!fallback) {
        throw new ProviderError({
          code: 'UNKNOWN_PROVIDER',
          message: `The model id "${id}" has no provider prefix and this registry has no default provider. Write it as "<provider>:<model>" (known: ${registry.names().join(', ')}).`,
        });
      }
      return fallback.languageModel(trimmed);
    },
  };
  return registry;
}
