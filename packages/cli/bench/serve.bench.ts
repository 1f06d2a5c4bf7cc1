// Issue 16's targets for `council serve`'s API (real HTTP on 127.0.0.1):
// - an event reaches an SSE client ≤ 20 ms after core emits it (median, loopback);
// - 50 concurrent sessions on the simulated provider: the server's overhead per session ≤ 5 % of the session's
//   wall time. Measured like for like: in each round 50 sessions at once through runAsk directly, 50 at once
//   through `council serve`, and 50 at once through a bare node:http handler on the same session hub (the floor
//   any HTTP server pays), in rotating order, one warm-up round dropped; the HTTP clients run in a child process
//   (as a browser runs outside the server), so the server process's CPU time is the server's alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defineBenchSuite, median } from '@council/bench';
import type { TestServer } from '@council/providers/test';
import type { CommandContext } from '../src/command-context.js';
import { runAsk } from '../src/commands/ask-command.js';
import { DEMO_BIASES, DEMO_MEMBERS } from '../src/commands/demo-command.js';
import { createStyle } from '../src/create-style.js';
import { eventStreamBody } from '../src/serve/event-stream-body.js';
import { serveCouncil } from '../src/serve/serve-council.js';
import { createSessionHub } from '../src/serve/session-hub.js';
import type { SessionRequest } from '../src/serve/session-hub.js';
import { createServeClient } from '../src/serve/serve-test-client.js';
import { captureIo } from '../src/testing/capture-io.js';
import { startCouncilTestServer } from '../src/testing/council-test-server.js';

const TOKEN = 'serve-bench-token-0123456789abcdef0123';
const KEY = 'sk-or-bench';
const SESSIONS = 50;
const ROUNDS = 8;
const LATENCY_SESSIONS = 5;
const SIMULATED = { ...DEMO_BIASES, seed: 1 };
const homes: string[] = [];

function context(env: Record<string, string>): CommandContext {
  const home = mkdtempSync(join(tmpdir(), 'council-bench-serve-'));
  homes.push(home);
  return {
    io: captureIo().io,
    env: { ...env, LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' },
    cwd: home,
    now: () => new Date(),
    out: createStyle(false),
    err: createStyle(false),
    verbose: false,
    version: '0.0.0',
  };
}

/** Core emitting an event → an SSE client parsing it: the time each event is appended to the run's log (synchronously, from core's listener) against the time the client reads it. */
async function eventLatencies(provider: TestServer): Promise<number[]> {
  const server = await serveCouncil({
    ctx: context({ OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY }),
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: null,
    log: () => undefined,
  });
  const client = createServeClient({ url: server.url, token: TOKEN });
  const latencies: number[] = [];
  try {
    for (let i = 0; i < LATENCY_SESSIONS; i++) {
      const id = await client.start({
        query: 'Which queue should we use?',
        members: ['test/alpha', 'test/beta', 'test/gamma'],
      });
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

/** What one round of 50 concurrent sessions took one way: each session's wall time, and this process's CPU time. */
interface Round {
  walls: number[];
  cpuMs: number;
}

const query = (i: number) => `How should a small team start writing tests? (${i})`;

async function timedRound(run: () => Promise<number[]>): Promise<Round> {
  const before = process.cpuUsage();
  const walls = await run();
  const cpu = process.cpuUsage(before);
  return { walls, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** 50 runAsk at once in this process, as `council ask --json` runs one. */
function directSessions(ctx: CommandContext): Promise<number[]> {
  return Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const started = performance.now();
      await runAsk(
        { question: query(i), models: [...DEMO_MEMBERS], json: true },
        { ...ctx, io: captureIo().io },
        { simulated: SIMULATED },
      );
      return performance.now() - started;
    }),
  );
}

/**
 * The floor: node:http with no framework, no checks and no validation, on a session hub with the same events
 * stream as the server's. What is left between it and runAsk is what serving a session over HTTP costs at all.
 */
async function startFloorServer(ctx: CommandContext): Promise<{ url: string; close(): Promise<void> }> {
  const hub = createSessionHub({ ctx, hooks: { simulated: SIMULATED }, log: () => undefined });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'POST') {
      let body = '';
      for await (const chunk of request) body += String(chunk);
      const run = await hub.start(JSON.parse(body) as SessionRequest);
      response
        .writeHead(202, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: run.id, events: `/api/sessions/${run.id}/events` }));
      return;
    }
    const run = hub.get(request.url!.split('/')[3]!)!;
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    for await (const chunk of eventStreamBody({ log: run.log, afterId: 0, keepAliveMs: 15_000 })) response.write(chunk);
    response.end();
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await hub.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The HTTP clients, in a child process: on each message, starts every session at once (POST), reads each event
 * stream until `done`, and answers each session's wall time from POST to `done` and the child's own CPU time.
 * node:http with a keep-alive agent (no limit on sockets, so no request waits for a connection) and a scan of
 * each chunk's text for the `done` event: as cheap a client as can be, since a browser's EventSource parses in
 * native code and 50 of them would not share one JavaScript thread. One process for every round, so its
 * connections and compiled code are warm after the first.
 */
const CLIENT_SCRIPT = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
function request(url, options, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, ...options }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}
async function session(url, token, query, members) {
  const started = performance.now();
  const body = JSON.stringify({ query, members });
  const posted = await request(url + '/api/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, body);
  let answer = '';
  for await (const chunk of posted) answer += chunk;
  if (posted.statusCode !== 202) throw new Error('POST answered ' + posted.statusCode + ': ' + answer);
  const stream = await request(url + JSON.parse(answer).events, { headers: { authorization: 'Bearer ' + token } });
  stream.setEncoding('utf8');
  let tail = '';
  for await (const chunk of stream) {
    const text = tail + chunk;
    const end = text.indexOf('event: done\\n');
    if (end >= 0) {
      const wall = performance.now() - started;
      stream.destroy();
      if (!text.slice(end).includes('"finished"')) throw new Error('a session did not finish: ' + text.slice(end, end + 80));
      return wall;
    }
    tail = text.slice(-64);
  }
  throw new Error('the stream ended before done');
}
process.on('message', ({ url, token, queries, members }) => {
  const before = process.cpuUsage();
  Promise.all(queries.map((query) => session(url, token, query, members))).then(
    (walls) => { const cpu = process.cpuUsage(before); process.send({ walls, cpuMs: (cpu.user + cpu.system) / 1000 }); },
    (error) => process.send({ error: String(error) }),
  );
});
`;

function startClients(): { run(url: string): Promise<{ walls: number[]; cpuMs: number }>; close(): void } {
  const child = spawn(process.execPath, ['--input-type=commonjs', '-e', CLIENT_SCRIPT], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    run: (url) =>
      new Promise((resolve, reject) => {
        child.once('message', (reply: { walls: number[]; cpuMs: number } | { error: string }) =>
          'error' in reply ? reject(new Error(reply.error)) : resolve(reply),
        );
        child.send({
          url,
          token: TOKEN,
          queries: Array.from({ length: SESSIONS }, (_, i) => query(i)),
          members: [...DEMO_MEMBERS],
        });
      }),
    close: () => void child.kill(),
  };
}

type Way = 'direct' | 'server' | 'floor';

/**
 * Rounds of 50 concurrent sessions each way, in rotating order so that each way meets the machine's moods alike;
 * also the clients' CPU time (in their own process) over every served round.
 */
async function concurrentRounds(): Promise<{ rounds: Record<Way, Round[]>; clientCpuMs: number }> {
  const directCtx = context({});
  const server = await serveCouncil({
    ctx: context({}),
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: true,
    hooks: { simulated: SIMULATED },
    assets: null,
    log: () => undefined,
  });
  const floor = await startFloorServer(context({}));
  const clients = startClients();
  let clientCpuMs = 0;
  const served = (url: string) => async () => {
    const reply = await clients.run(url);
    clientCpuMs += reply.cpuMs;
    return reply.walls;
  };
  const runs: Record<Way, () => Promise<number[]>> = {
    direct: () => directSessions(directCtx),
    server: served(server.url),
    floor: served(floor.url),
  };
  const rounds: Record<Way, Round[]> = { direct: [], server: [], floor: [] };
  const ways: Way[] = ['direct', 'server', 'floor'];
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      for (const way of [...ways.slice(round % 3), ...ways.slice(0, round % 3)]) {
        const result = await timedRound(runs[way]);
        if (round > 0) rounds[way].push(result);
      }
    }
  } finally {
    clients.close();
    await floor.close();
    await server.close();
  }
  return { rounds, clientCpuMs };
}

let provider: TestServer;

export const suite = defineBenchSuite({
  name: 'cli serve',
  setup: async () => {
    // The chairman streams its reply in 4-character pieces 2 ms apart: a few hundred events a session.
    provider = await startCouncilTestServer({
      contributors: ['test/alpha', 'test/beta', 'test/gamma'],
      apiKey: KEY,
      chairman: { text: 'Start with characterisation tests. '.repeat(12), chunkSize: 4, chunkDelayMs: 2 },
    });
  },
  values: async () => {
    const latencies = (await eventLatencies(provider)).sort((a, b) => a - b);
    const { rounds, clientCpuMs } = await concurrentRounds();
    // Per round: the median session's wall time, and this process's CPU time per session.
    const wall = (way: Way) => rounds[way].map((r) => median(r.walls));
    const cpu = (way: Way) => median(rounds[way].map((r) => r.cpuMs / SESSIONS));
    // Paired: each round's served median against the same round's direct one.
    const slowdown = (way: Way) => median(wall(way).map((w, i) => w / wall('direct')[i]! - 1));
    const directWall = median(wall('direct'));
    const overheadCpu = cpu('server') - cpu('direct');
    const label = `${SESSIONS} concurrent simulated sessions`;
    return [
      {
        name: `SSE: core emits → client reads, median of ${latencies.length} events`,
        value: median(latencies),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'SSE: core emits → client reads, 95th percentile',
        value: latencies[Math.floor(latencies.length * 0.95)]!,
        unit: 'ms',
      },
      { name: `${label}, runAsk directly: median wall per session (${ROUNDS} rounds)`, value: directWall, unit: 'ms' },
      {
        name: `${label} through council serve (POST → done): median wall per session`,
        value: median(wall('server')),
        unit: 'ms',
      },
      {
        name: `${label} through a bare node:http handler (the floor): median wall per session`,
        value: median(wall('floor')),
        unit: 'ms',
      },
      { name: 'CPU per session in the serving process: runAsk directly', value: cpu('direct'), unit: 'ms' },
      { name: 'CPU per session in the serving process: council serve', value: cpu('server'), unit: 'ms' },
      { name: 'CPU per session in the serving process: bare node:http floor', value: cpu('floor'), unit: 'ms' },
      {
        name: "CPU per session in the clients' own process (node:http, finding done)",
        value: clientCpuMs / (2 * ROUNDS * SESSIONS),
        unit: 'ms',
      },
      {
        name: "server overhead per session: the server's CPU beyond runAsk's / a session's wall time",
        value: overheadCpu / directWall,
        unit: '×',
        budget: 0.05,
      },
      {
        name: 'wall time per session through council serve / directly − 1 (paired rounds, median)',
        value: slowdown('server'),
        unit: '×',
        budget: 0.05,
      },
      {
        name: 'wall time per session through the bare node:http floor / directly − 1 (paired rounds, median)',
        value: slowdown('floor'),
        unit: '×',
      },
    ];
  },
  teardown: async () => {
    await provider.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  },
});
