import { performance } from 'node:perf_hooks';
import { defineBenchSuite } from '@council/bench';
import ky from 'ky';
import { createOpenRouter } from '../dist/index.js';
import { createOpenRouterTestServer } from '../dist/test/index.js';
import type { TestServer } from '../dist/test/index.js';

// Issue 6's targets: 1,000 sequential calls through doGenerate within 1.2× the same calls through a
// bare fetch loop, and 200 concurrent calls where no call waits beyond the concurrency limit.
const CALLS = 1000;
const messages = [{ role: 'user' as const, content: 'Say ok.' }];
let server: TestServer;

async function bareFetchLoop(): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
      body: JSON.stringify({ model: 'bench/model', messages }),
    });
    const json = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    if (json.choices[0]?.message.content !== 'ok') throw new Error('unexpected answer');
  }
}

/** The same calls through ky alone (as the providers configure it), to show where the time goes. */
async function kyLoop(): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const response = await ky.post(`${server.url}/chat/completions`, {
      json: { model: 'bench/model', messages },
      headers: { authorization: 'Bearer bench-key' },
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
    });
    const json = await response.json<{ choices: Array<{ message: { content: string } }> }>();
    if (json.choices[0]?.message.content !== 'ok') throw new Error('unexpected answer');
  }
}

async function doGenerateLoop(): Promise<void> {
  const model = createOpenRouter({ baseURL: server.url, apiKey: 'bench-key' })('bench/model');
  for (let i = 0; i < CALLS; i++) {
    const result = await model.doGenerate({ messages });
    if (result.text !== 'ok') throw new Error('unexpected answer');
  }
}

/**
 * 200 calls at once through one provider limited to 8 in flight, against a server that takes 10 ms a
 * call. A wrapped fetch records when each request starts and when its body has been read. With the
 * slots sorted by time, request k (k ≥ 8) can start no earlier than the (k − 8)-th request end; its
 * hand-off delay is how long after that a slot-holder started it. A call that waited on another beyond
 * the limit would show as a hand-off delay of a whole service time (≥ 10 ms) or more.
 */
async function concurrentBurst(): Promise<{
  maxInFlight: number;
  maxWaitMs: number;
  maxHandOffMs: number;
  medianHandOffMs: number;
  slowHandOffs: number;
  totalMs: number;
}> {
  const LIMIT = 8;
  const N = 200;
  const slow = await createOpenRouterTestServer({ respond: () => ({ kind: 'text', text: 'ok', delayMs: 10 }) });
  try {
    const starts: number[] = [];
    const ends: number[] = [];
    const provider = createOpenRouter({
      baseURL: slow.url,
      apiKey: 'bench-key',
      maxConcurrency: LIMIT,
      fetch: async (input, init) => {
        starts.push(performance.now());
        const response = await fetch(input, init);
        const text = await response.text();
        ends.push(performance.now());
        return new Response(text, { status: response.status, headers: response.headers });
      },
    });
    const model = provider('bench/model');
    const started = performance.now();
    await Promise.all(Array.from({ length: N }, () => model.doGenerate({ messages })));
    const totalMs = performance.now() - started;
    starts.sort((a, b) => a - b);
    ends.sort((a, b) => a - b);
    const handOffs = starts.map((s, k) => (k < LIMIT ? s - started : s - ends[k - LIMIT]!));
    const sorted = [...handOffs].sort((a, b) => a - b);
    return {
      maxInFlight: slow.maxInFlight,
      maxWaitMs: starts.at(-1)! - started,
      maxHandOffMs: sorted.at(-1)!,
      medianHandOffMs: sorted[Math.floor(sorted.length / 2)]!,
      slowHandOffs: handOffs.filter((h) => h >= 10).length,
      totalMs,
    };
  } finally {
    await slow.close();
  }
}

export const suite = defineBenchSuite({
  name: 'providers',
  setup: async () => {
    server = await createOpenRouterTestServer();
  },
  teardown: () => server.close(),
  cases: [
    { name: `fetch × ${CALLS} (loopback)`, iterations: 5, fn: bareFetchLoop },
    { name: `ky.post × ${CALLS} (loopback)`, iterations: 5, baseline: `fetch × ${CALLS} (loopback)`, fn: kyLoop },
    {
      name: `doGenerate × ${CALLS} (loopback)`,
      iterations: 5,
      baseline: `fetch × ${CALLS} (loopback)`,
      fn: doGenerateLoop,
    },
  ],
  values: async () => {
    const burst = await concurrentBurst();
    return [
      { name: '200 concurrent, limit 8: max in flight', value: burst.maxInFlight, unit: 'calls', budget: 8 },
      { name: '200 concurrent, limit 8: max queue wait', value: Math.round(burst.maxWaitMs), unit: 'ms' },
      {
        name: '200 concurrent, limit 8: max slot hand-off',
        value: Number(burst.maxHandOffMs.toFixed(2)),
        unit: 'ms',
        budget: 10,
      },
      {
        name: '200 concurrent, limit 8: median slot hand-off',
        value: Number(burst.medianHandOffMs.toFixed(2)),
        unit: 'ms',
      },
      { name: '200 concurrent, limit 8: hand-offs ≥ 10 ms', value: burst.slowHandOffs, unit: 'calls' },
      { name: '200 concurrent, limit 8: total', value: Math.round(burst.totalMs), unit: 'ms' },
    ];
  },
});
