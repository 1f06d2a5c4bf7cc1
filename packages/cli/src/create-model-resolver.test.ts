import { createOpenAICompatibleTestServer } from '@council/providers/test';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelResolver } from './create-model-resolver.js';
import { resolveCouncilSettings } from './settings/resolve-council-settings.js';

// The local servers (vLLM, LM Studio, Ollama) take a key only when started with one (`vllm serve --api-key`);
// the settings must carry it to the provider, which sends it as `Authorization: Bearer <key>`.
const KEY = 'local-key-canary';
let server: TestServer;
beforeAll(async () => {
  server = await createOpenAICompatibleTestServer({ apiKey: KEY, respond: () => ({ kind: 'text', text: 'hi' }) });
});
afterAll(() => server.close());

describe('createModelResolver with resolved settings: local servers started with a key', () => {
  it.each([
    ['vllm', 'VLLM_API_KEY', 'VLLM_BASE_URL'],
    ['lmstudio', 'LMSTUDIO_API_KEY', 'LMSTUDIO_BASE_URL'],
    ['ollama', 'OLLAMA_API_KEY', 'OLLAMA_BASE_URL'],
  ])('%s: the request carries %s as a bearer token', async (provider, keyVariable, baseUrlVariable) => {
    server.reset();
    const settings = resolveCouncilSettings(
      { HOME: '/home/tester', [baseUrlVariable]: server.url, [keyVariable]: ` ${KEY} ` },
      { cwd: '/tmp' },
    );
    const model = createModelResolver({ env: settings.secrets.providerEnv, maxRetries: 0 })(`${provider}:qwen`);
    const result = await model.doGenerate({ messages: [{ role: 'user', content: 'q' }] });
    expect(result.text).toBe('hi');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a local server without a key set gets no Authorization header', async () => {
    server.reset();
    const settings = resolveCouncilSettings({ HOME: '/home/tester', VLLM_BASE_URL: server.url }, { cwd: '/tmp' });
    const model = createModelResolver({ env: settings.secrets.providerEnv, maxRetries: 0 })('vllm:qwen');
    await expect(model.doGenerate({ messages: [{ role: 'user', content: 'q' }] })).rejects.toThrow();
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});
