import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import { ProviderError } from './provider-error.js';
import { createProviderRegistry } from './provider-registry.js';
import { defaultProviderRegistry, resolveModel } from './resolve-model.js';
import { createSimulated } from './simulated-provider.js';

describe('resolveModel', () => {
  it.each([
    ['openrouter:x/y', 'openrouter', 'x/y'],
    ['anthropic/claude-opus-4.6', 'openrouter', 'anthropic/claude-opus-4.6'],
    ['meta-llama/llama-3.2-3b-instruct:free', 'openrouter', 'meta-llama/llama-3.2-3b-instruct:free'],
    ['ollama:llama3.2', 'ollama', 'llama3.2'],
    ['ollama:llama3.2:3b', 'ollama', 'llama3.2:3b'],
    ['anthropic:claude-opus-4-6', 'anthropic', 'claude-opus-4-6'],
    ['gemini:gemini-2.5-flash', 'gemini', 'gemini-2.5-flash'],
    ['gemini:models/gemini-2.5-pro', 'gemini', 'gemini-2.5-pro'],
    ['openai:gpt-5', 'openai', 'gpt-5'],
    ['vllm:Qwen/Qwen3-8B', 'vllm', 'Qwen/Qwen3-8B'],
    ['lmstudio:qwen3-8b', 'lmstudio', 'qwen3-8b'],
    ['llamacpp:qwen3-0.6b-q8_0', 'llamacpp', 'qwen3-0.6b-q8_0'],
    ['simulated:ada', 'simulated', 'ada'],
    ['  simulated:basil ', 'simulated', 'basil'],
  ])('%s → %s / %s', (id, provider, modelId) => {
    const model = resolveModel(id);
    expect(model.specificationVersion).toBe('v1');
    expect(model.provider).toBe(provider);
    expect(model.modelId).toBe(modelId);
  });

  it('lists the known providers when the prefix is unknown', () => {
    const error = (() => {
      try {
        resolveModel('mistral:large');
      } catch (e) {
        return e;
      }
    })();
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'UNKNOWN_PROVIDER' });
    expect((error as Error).message).toContain('"mistral"');
    expect((error as Error).message).toContain(
      'anthropic, gemini, llamacpp, lmstudio, ollama, openai, openrouter, simulated, vllm',
    );
  });

  it('rejects an empty id and a prefix without a model', () => {
    expect(() => resolveModel('')).toThrow(/empty/);
    expect(() => resolveModel('ollama:')).toThrow(/no model/);
  });

  it('resolves custom providers from a registry, and can register into the default one', () => {
    const registry = createProviderRegistry({ providers: [createSimulated({ seed: 9 })] });
    registry.register(createOpenAICompatible({ name: 'together', baseURL: 'http://127.0.0.1:9/v1' }));
    expect(resolveModel('together:meta/llama', { registry }).provider).toBe('together');
    expect(() => resolveModel('x/y', { registry })).toThrow(/no default provider/);
    expect(defaultProviderRegistry.get('together')).toBeUndefined();
    defaultProviderRegistry.register(createOpenAICompatible({ name: 'deepinfra', baseURL: 'http://127.0.0.1:9/v1' }));
    expect(resolveModel('deepinfra:m').provider).toBe('deepinfra');
  });

  it('creates models without touching the network or reading keys', () => {
    const saved = process.env.OPENROUTER_API_KEY;
    delete process.env.OPENROUTER_API_KEY;
    try {
      expect(() => resolveModel('x/y')).not.toThrow();
    } finally {
      if (saved !== undefined) process.env.OPENROUTER_API_KEY = saved;
    }
  });
});
