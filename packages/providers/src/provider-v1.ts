import type { LanguageModelV1 } from './language-model-v1.js';

/**
 * A provider: a name and a way to make its models. Callable as a shorthand, so
 * `openrouter('x/y')` is `openrouter.languageModel('x/y')`.
 */
export interface ProviderV1 {
  (modelId: string): LanguageModelV1;
  readonly name: string;
  languageModel(modelId: string): LanguageModelV1;
}

/** Builds a callable provider from its name and model factory. */
export function defineProvider(name: string, languageModel: (modelId: string) => LanguageModelV1): ProviderV1 {
  const provider = ((modelId: string) => languageModel(modelId)) as ProviderV1;
  Object.defineProperty(provider, 'name', { value: name });
  Object.defineProperty(provider, 'languageModel', { value: languageModel, enumerable: true });
  return provider;
}
