import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenRouter } from './openrouter-provider.js';
import { createFakeClock } from './test/create-fake-clock.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer } from './test/start-test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createOpenRouterTestServer({ respond: () => ({ kind: 'text', text: 'ok', delayMs: 20 }) });
});
afterAll(() => server.close());

const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('per-provider limits', () => {
  it('keeps at most maxConcurrency calls in flight across all models of one provider, and finishes them all', async () => {
    const provider = createOpenRouter({ baseURL: server.url, apiKey: 'k', maxConcurrency: 3 });
    const before = server.requests.length;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => provider(i % 2 ? 'a/b' : 'c/d').doGenerate({ messages })),
    );
    expect(results.every((r) => r.text === 'ok')).toBe(true);
    expect(server.requests.length - before).toBe(12);
    expect(server.maxInFlight).toBe(3);
  });

  it('spaces request starts to requestsPerMinute', async () => {
    const clock = createFakeClock();
    const provider = createOpenRouter({
      baseURL: server.url,
      apiKey: 'k',
      requestsPerMinute: 2,
      clock,
      timeoutMs: 10 * 60_000,
    });
    const t0 = clock.now();
    for (let i = 0; i < 5; i++) await provider('a/b').doGenerate({ messages });
    // Two starts per 60 s window: calls 3–4 wait one minute, call 5 two.
    expect(clock.sleeps).toEqual([60_000, 60_000]);
    expect(clock.now() - t0).toBe(120_000);
  });
});
