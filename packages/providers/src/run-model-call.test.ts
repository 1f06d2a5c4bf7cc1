import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateOptions, StreamPart } from './language-model-v1.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import { createFakeClock } from './test/create-fake-clock.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import type { TestServer } from './test/start-test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createOpenAICompatibleTestServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

const messages = [{ role: 'user' as const, content: 'Hi' }];

/** One call that takes 20 s of the fake clock: a 503 asking to retry after 20 s, then the answer. */
const twentySecondCall = [
  { kind: 'error' as const, status: 503, message: 'busy', headers: { 'retry-after': '20' } },
  { kind: 'text' as const, text: 'ok' },
];

function listeners(log: string[], name: string): Pick<GenerateOptions, 'onQueued' | 'onDispatched'> {
  return { onQueued: () => log.push(`${name} queued`), onDispatched: () => log.push(`${name} dispatched`) };
}

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

describe('a call waiting for a slot', () => {
  it('starts its deadline and latency when it gets the slot, and reports queued/dispatched only when it waited', async () => {
    const clock = createFakeClock();
    const local = createOpenAICompatible({
      name: 'local',
      baseURL: server.url,
      maxConcurrency: 1,
      maxRetries: 1,
      timeoutMs: 30_000,
      clock,
    });
    server.enqueue(...twentySecondCall, ...twentySecondCall, ...twentySecondCall);
    const log: string[] = [];
    // Three 20 s calls through one slot take 60 s; each has 30 s. Were the deadline counted from the call
    // (not the dispatch), the second would have 10 s left at its 503 and fail instead of waiting 20 s.
    const results = await Promise.all(
      ['a', 'b', 'c'].map((name) => local('m').doGenerate({ messages, ...listeners(log, name) })),
    );
    expect(results.map((r) => r.text)).toEqual(['ok', 'ok', 'ok']);
    expect(results.map((r) => r.latencyMs)).toEqual([20_000, 20_000, 20_000]);
    expect(clock.sleeps).toEqual([20_000, 20_000, 20_000]);
    expect(log).toEqual(['b queued', 'c queued', 'b dispatched', 'c dispatched']);
    expect(server.maxInFlight).toBe(1);
  });

  it('does the same for streams', async () => {
    const clock = createFakeClock();
    const local = createOpenAICompatible({
      name: 'local',
      baseURL: server.url,
      maxConcurrency: 1,
      maxRetries: 1,
      timeoutMs: 30_000,
      clock,
    });
    server.enqueue(...twentySecondCall, ...twentySecondCall);
    const log: string[] = [];
    const [first, second] = await Promise.all(
      ['a', 'b'].map((name) => collect(local('m').doStream!({ messages, ...listeners(log, name) }))),
    );
    expect(first?.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(second?.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(log).toEqual(['b queued', 'b dispatched']);
  });

  it('keeps the call going when a listener throws', async () => {
    const local = createOpenAICompatible({ name: 'local', baseURL: server.url, maxConcurrency: 1, maxRetries: 0 });
    const boom = (): never => {
      throw new Error('listener failed');
    };
    server.enqueue({ kind: 'text', text: 'one', delayMs: 30 }, { kind: 'text', text: 'two' });
    const results = await Promise.all([
      local('m').doGenerate({ messages }),
      local('m').doGenerate({ messages, onQueued: boom, onDispatched: boom }),
    ]);
    expect(results.map((r) => r.text)).toEqual(['one', 'two']);
  });

  it('leaves the queue when the caller aborts, sending nothing and never reporting a dispatch', async () => {
    const local = createOpenAICompatible({ name: 'local', baseURL: server.url, maxConcurrency: 1, maxRetries: 0 });
    server.enqueue({ kind: 'text', text: 'slow', delayMs: 100 });
    const controller = new AbortController();
    const log: string[] = [];
    const first = local('m').doGenerate({ messages });
    const second = local('m').doGenerate({ messages, abortSignal: controller.signal, ...listeners(log, 'b') });
    controller.abort(new Error('user cancelled'));
    await expect(second).rejects.toThrow('user cancelled');
    expect((await first).text).toBe('slow');
    expect(log).toEqual(['b queued']);
    expect(server.requests).toHaveLength(1);
  });
});
