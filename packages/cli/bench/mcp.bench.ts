// Issue 17's targets for `council mcp` (the bundled executable, driven by the SDK's own client over stdio):
// consult_council's wall time / the critical path of scripted model latencies ≤ 1.05, and server start →
// `initialize` answered ≤ 300 ms.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { defineBenchSuite, median } from '@council/bench';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createOpenRouterTestServer } from '@council/providers/test';
import type { RecordedRequest, TestResponse, TestServer } from '@council/providers/test';
import { councilRequestStage } from '../src/testing/council-request-stage.js';

const bundle = fileURLToPath(new URL('../../../apps/cli/dist/council.js', import.meta.url));
const KEY = 'sk-or-bench';

// Five members with spread latencies, as core's benchmark but on a scale nearer real models: answers 100–600 ms,
// reviews 450–150 ms (the slowest answerer reviews fastest), the chairman 300 ms. Critical path 600 + 450 + 300.
const MEMBERS = ['bench/m1', 'bench/m2', 'bench/m3', 'bench/m4', 'bench/m5'];
const latency = (model: string) => {
  const i = MEMBERS.indexOf(model);
  return { answer: 100 + 125 * i, review: 450 - 75 * i, chairman: 300 };
};
const CRITICAL_PATH_MS = 600 + 450 + 300;

function respond(request: RecordedRequest): TestResponse {
  const model = request.model ?? '';
  const body = request.body as { messages?: { content: string }[] } | undefined;
  const prompt = (body?.messages ?? []).map((m) => m.content).join('\n');
  const usage = { inputTokens: 100, outputTokens: 50, costUsd: 0.001 };
  switch (councilRequestStage(prompt)) {
    case 'answer':
      return {
        kind: 'text',
        text: `Answer from ${model}: ${'detail '.repeat(40)}`,
        usage,
        delayMs: latency(model).answer,
      };
    case 'review': {
      const labels = [...new Set([...prompt.matchAll(/Response ([A-Z]+)\b/g)].map((m) => `Response ${m[1]}`))].filter(
        (l) => l !== 'Response X',
      );
      const json = JSON.stringify({
        ranking: labels,
        scores: Object.fromEntries(labels.map((l, i) => [l, Math.max(1, 9 - i)])),
      });
      return {
        kind: 'text',
        text: `\`\`\`json\n${json}\n\`\`\`\nFINAL RANKING:\n${labels.map((l, i) => `${i + 1}. ${l}`).join('\n')}\n`,
        usage,
        delayMs: latency(model).review,
      };
    }
    case 'chairman':
      return {
        kind: 'text',
        text: `Synthesis.\n\`\`\`json\n${JSON.stringify({ contributors: [{ id: MEMBERS[0], weight: 1, reason: 'r' }] })}\n\`\`\`\n`,
        usage,
        delayMs: latency(model).chairman,
      };
  }
}

let server: TestServer;
let home = '';
let client: Client;
const councilTimes: number[] = [];

function transport(): StdioClientTransport {
  const env = {
    PATH: process.env['PATH'] ?? '',
    LLM_COUNCIL_HOME: home,
    OPENROUTER_API_KEY: KEY,
    OPENROUTER_BASE_URL: server.url,
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  return new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp'], env, stderr: 'ignore' });
}

export const suite = defineBenchSuite({
  name: 'cli mcp',
  setup: async () => {
    server = await createOpenRouterTestServer({ apiKey: KEY, respond });
    home = mkdtempSync(join(tmpdir(), 'council-bench-mcp-'));
    client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(transport());
  },
  cases: [
    // For scale: most of a start is loading the one-file bundle, which every command pays.
    { name: 'council --version', iterations: 15, fn: () => execFileSync(process.execPath, [bundle, '--version']) },
    {
      name: 'council mcp: start → initialize answered',
      budgetMs: 300,
      iterations: 15,
      fn: async () => {
        // Client.connect spawns the server and resolves when the initialize result arrives.
        const c = new Client({ name: 'bench', version: '1.0.0' });
        await c.connect(transport());
        await c.close();
      },
    },
    {
      name: `consult_council, 5 members (critical path ${CRITICAL_PATH_MS} ms)`,
      budgetMs: CRITICAL_PATH_MS,
      iterations: 7,
      fn: async () => {
        const started = performance.now();
        const result = (await client.callTool(
          { name: 'consult_council', arguments: { query: 'Which queue should we use?', members: MEMBERS } },
          undefined,
          { onprogress: () => undefined },
        )) as CallToolResult;
        councilTimes.push(performance.now() - started);
        if (result.isError) throw new Error(`consult_council failed: ${JSON.stringify(result.content)}`);
      },
    },
  ],
  values: () => [
    {
      name: 'consult_council wall / critical path (median)',
      value: median(councilTimes.slice(1)) / CRITICAL_PATH_MS,
      unit: '×',
      budget: 1.05,
    },
  ],
  teardown: async () => {
    await client.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  },
});
