// Issue 16's targets for `council serve`'s API (in this process, real HTTP on 127.0.0.1):
// - an event reaches an SSE client ≤ 20 ms after core emits it (median, loopback);
// - 50 concurrent sessions on the simulated provider: the server's overhead per session ≤ 5 % of the session's
//   wall time run directly through runAsk (both measured side by side, alternating, in this one run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { defineBenchSuite, median } from '@council/bench';
import type { TestServer } from '@council/providers/test';
import type { CommandContext } from '../src/command-context.js';
import { runAsk } from '../src/commands/ask-command.js';
import { DEMO_BIASES, DEMO_MEMBERS } from '../src/commands/demo-command.js';
import { createStyle } from '../src/create-style.js';
import { serveCouncil } from '../src/serve/serve-council.js';
import { createServeClient } from '../src/serve/serve-test-client.js';
import { captureIo } from '../src/testing/capture-io.js';
import { startCouncilTestServer } from '../src/testing/council-test-server.js';

const TOKEN = 'serve-bench-token-0123456789abcdef0123';
const KEY = 'sk-or-bench';
const SESSIONS = 50;
const ROUNDS = 3;
const LATENCY_SESSIONS = 5;
const SIMULATED = { ...DEMO_BIASES, seed: 1 };
const homes: string[] = [];

function context(env: Record<string, string>): CommandContext {
  const home = mkdtempSync(join(tmpdir(), 'council-bench-serve-'));
  homes.push(home);
  return { io: captureIo().io, env: { ...env, LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' }, cwd: home, now: () => new Date(), out: createStyle(false), err: createStyle(false), verbose: false, version: '0.0.0' };
}

/** Core emitting an event → an SSE client parsing it: the time each event is appended to the run's log (synchronously, from core's listener) against the time the client reads it. */
async function eventLatencies(provider: TestServer): Promise<number[]> {
  const server = await serveCouncil({ ctx: context({ OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY }), host: '127.0.0.1', port: 0, token: TOKEN, demo: false, assets: null, log: () => undefined });
  const client = createServeClient({ url: server.url, token: TOKEN });
  const latencies: number[] = [];
  try {
    for (let i = 0; i < LATENCY_SESSIONS; i++) {
      const id = await client.start({ query: 'Which queue should we use?', members: ['test/alpha', 'test/beta', 'test/gamma'] });
      const emitted = new Map<number, number>();
      const run = server.hub.get(id)!;
      // Live events only: those already in the log when this subscribes are replayed, not emitted now.
      const live = run.log.events.length;
      run.log.subscribe(live, (event) => void emitted.set(event.id, performance.now()));
      await client.events(id, {
        onEvent: (event) => {
          const at = emitted.get(event.id);
          if (at !== undefined) latencies.push(performance.now() - at);
        },
      });
    }
  } finally {
    await server.close();
  }
  return latencies;
}

/** 50 sessions at once on the simulated personas: each session's wall time, through runAsk or through the server. */
async function concurrentWallTimes(way: 'direct' | 'server'): Promise<number[]> {
  const ctx = context({});
  const query = (i: number) => `How should a small team start writing tests? (${i})`;
  if (way === 'direct') {
    return Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const started = performance.now();
        await runAsk({ question: query(i), models: [...DEMO_MEMBERS], json: true }, { ...ctx, io: captureIo().io }, { simulated: SIMULATED });
        return performance.now() - started;
      }),
    );
  }
  const server = await serveCouncil({ ctx, host: '127.0.0.1', port: 0, token: TOKEN, demo: true, hooks: { simulated: SIMULATED }, assets: null, log: () => undefined });
  try {
    // The clients run in a worker thread, as a browser runs elsewhere: the server's event loop serves only.
    const worker = new Worker(CLIENT_WORKER, { eval: true, workerData: { url: server.url, token: TOKEN, queries: Array.from({ length: SESSIONS }, (_, i) => query(i)), members: [...DEMO_MEMBERS] } });
    return await new Promise<number[]>((resolve, reject) => {
      worker.once('message', (times: number[] | { error: string }) => (Array.isArray(times) ? resolve(times) : reject(new Error(times.error))));
      worker.once('error', reject);
    });
  } finally {
    await server.close();
  }
}

/**
 * Starts every session at once (POST), reads each event stream to `done` as a browser's EventSource would (the
 * stream's text, split at blank lines), and posts each session's wall time from POST to `done`.
 */
const CLIENT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, queries, members } = workerData;
const headers = { authorization: 'Bearer ' + token };
async function session(query) {
  const started = performance.now();
  const posted = await fetch(url + '/api/sessions', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, members }) });
  if (posted.status !== 202) throw new Error('POST answered ' + posted.status + ': ' + (await posted.text()));
  const { events } = await posted.json();
  const stream = await fetch(url + events, { headers });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of stream.body) {
    text += decoder.decode(chunk, { stream: true });
    const end = text.indexOf('event: done\\n');
    if (end >= 0) {
      if (!text.slice(end).includes('"finished"')) throw new Error('a session did not finish: ' + text.slice(end, end + 80));
      return performance.now() - started;
    }
  }
  throw new Error('the stream ended before done');
}
Promise.all(queries.map(session)).then((times) => parentPort.postMessage(times), (error) => parentPort.postMessage({ error: String(error) }));
`;

let provider: TestServer;

export const suite = defineBenchSuite({
  name: 'cli serve',
  setup: async () => {
    // The chairman streams its reply in 4-character pieces 2 ms apart: a few hundred events a session.
    provider = await startCouncilTestServer({ contributors: ['test/alpha', 'test/beta', 'test/gamma'], apiKey: KEY, chairman: { text: 'Start with characterisation tests. '.repeat(12), chunkSize: 4, chunkDelayMs: 2 } });
  },
  values: async () => {
    const latencies = (await eventLatencies(provider)).sort((a, b) => a - b);
    const direct: number[] = [];
    const served: number[] = [];
    // Alternating rounds, so both ways share the machine's mood; the first round of each warms up and is dropped.
    await concurrentWallTimes('direct');
    await concurrentWallTimes('server');
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(...(await concurrentWallTimes('direct')));
      served.push(...(await concurrentWallTimes('server')));
    }
    const directMedian = median(direct);
    const servedMedian = median(served);
    return [
      { name: `SSE: core emits → client reads, median of ${latencies.length} events`, value: median(latencies), unit: 'ms', budget: 20 },
      { name: 'SSE: core emits → client reads, 95th percentile', value: latencies[Math.floor(latencies.length * 0.95)]!, unit: 'ms' },
      { name: `${SESSIONS} concurrent simulated sessions, runAsk directly: median wall per session (${ROUNDS} rounds)`, value: directMedian, unit: 'ms' },
      { name: `${SESSIONS} concurrent simulated sessions through council serve (POST → done): median wall per session`, value: servedMedian, unit: 'ms' },
      { name: 'server overhead per session / its direct wall time (medians)', value: (servedMedian - directMedian) / directMedian, unit: '×', budget: 0.05 },
    ];
  },
  teardown: async () => {
    await provider.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  },
});
