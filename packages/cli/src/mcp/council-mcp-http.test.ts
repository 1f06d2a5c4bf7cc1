// `council mcp --http` end to end: the bundled executable on 127.0.0.1, its safety rules over real HTTP, and the
// SDK's own Client over the streamable HTTP transport.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const bundle = fileURLToPath(new URL('../../../../apps/cli/dist/council.js', import.meta.url));
let child: ChildProcess;
let url = '';
let token = '';
let stderr = '';
let models: TestServer;
let home = '';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** One POST to the endpoint with exactly these headers (node:http lets a test set Host). */
function post(
  headers: Record<string, string>,
  body = initialize,
  endpoint = url,
): Promise<{ status: number; body: string }> {
  const target = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  expect(statSync(bundle).isFile(), 'run `pnpm build` first: this test drives the bundled executable').toBe(true);
  home = mkdtempSync(join(tmpdir(), 'council-mcp-http-'));
  models = await startCouncilTestServer({ contributors: ['test/alpha', 'test/beta'], apiKey: 'sk-or-http-test' });
  const env = {
    PATH: process.env['PATH'] ?? '',
    LLM_COUNCIL_HOME: home,
    OPENROUTER_API_KEY: 'sk-or-http-test',
    OPENROUTER_BASE_URL: models.url,
  };
  child = spawn(process.execPath, [bundle, 'mcp', '--http'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const u = /streamable HTTP on (\S+)/.exec(stderr);
      const t = /token for this launch .*\): (\S+)/.exec(stderr);
      if (u && t) {
        url = u[1]!;
        token = t[1]!;
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`council mcp --http exited ${code}: ${stderr}`)));
  });
}, 30_000);

afterAll(async () => {
  child.kill('SIGTERM');
  await models.close();
});

describe('council mcp --http (the bundled executable)', () => {
  it('binds 127.0.0.1 on a free port and prints a per-launch token', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a request without the token, with a wrong one, from a foreign origin, for a rebinding host, or too large', async () => {
    const port = new URL(url).port;
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer not-the-token' })).status).toBe(401);
    // A wrong token of the same length, so the comparison itself (not the length check) refuses it.
    const sameLength = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(sameLength).toHaveLength(token.length);
    expect((await post({ authorization: `Bearer ${sameLength}` })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${token}`, host: `attacker.example:${port}` })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${token}` }, `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`)).status).toBe(
      413,
    );
    // The same origin and a localhost Host are fine.
    expect(
      (await post({ authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${port}`, host: `localhost:${port}` }))
        .status,
    ).toBe(200);
  });

  it('serves the SDK client with the token: tools, and a simulated council with progress', async () => {
    const client = new Client({ name: 'council-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'bias_report',
      'consult_council',
      'get_session',
      'leaderboard',
      'list_sessions',
    ]);
    const progress: Progress[] = [];
    const result = (await client.callTool(
      {
        name: 'consult_council',
        arguments: {
          query: 'Which queue should we use?',
          members: ['simulated:ada', 'simulated:basil', 'simulated:cleo'],
        },
      },
      undefined,
      { onprogress: (p) => void (Number.isInteger(p.progress) && progress.push(p)) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ simulated: true, complete: true });
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await client.close();
  }, 30_000);

  it('a cancelled call aborts its council over HTTP too: the calls are dropped and nothing is saved', async () => {
    const client = new Client({ name: 'council-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const history = join(home, 'history.jsonl');
    const before = existsSync(history) ? readFileSync(history, 'utf8') : '';
    const controller = new AbortController();
    let answered = 0;
    const call = client.callTool(
      {
        name: 'consult_council',
        arguments: { query: 'Which queue?', members: ['test/alpha', 'test/beta', 'test/hang'] },
      },
      undefined,
      {
        signal: controller.signal,
        onprogress: (p) => {
          if (/answered/.test(p.message ?? '') && ++answered === 2) controller.abort('stop');
        },
      },
    );
    await expect(call).rejects.toThrow(/stop|abort/i);
    // No wall-clock bound: a connection left open until test/hang's 120 s stage timeout fails on this test's 30 s one.
    while (models.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(history) ? readFileSync(history, 'utf8') : '').toBe(before);
    await client.close();
  }, 30_000);

  it('takes a number-like --token exactly as typed, and a token from LLM_COUNCIL_MCP_TOKEN', async () => {
    for (const [args, env, secret] of [
      [['--token', '01234567890123456789012345678901'], {}, '01234567890123456789012345678901'],
      [[], { LLM_COUNCIL_MCP_TOKEN: 'env-token-env-token-env-token-32' }, 'env-token-env-token-env-token-32'],
    ] as const) {
      const other = spawn(process.execPath, [bundle, 'mcp', '--http', ...args], {
        env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: home, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      const otherUrl = await new Promise<string>((resolve, reject) => {
        other.stderr.setEncoding('utf8').on('data', (c: string) => {
          err += c;
          const u = /streamable HTTP on (\S+)/.exec(err);
          if (u) resolve(u[1]!);
        });
        other.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      try {
        // A given token is not printed.
        expect(err).not.toContain(secret);
        expect((await post({ authorization: `Bearer ${secret}` }, initialize, otherUrl)).status).toBe(200);
        expect((await post({ authorization: `Bearer ${secret.slice(1)}` }, initialize, otherUrl)).status).toBe(401);
      } finally {
        other.kill('SIGTERM');
      }
    }
  }, 60_000);

  it('refuses a non-loopback --host without a token', async () => {
    const other = spawn(process.execPath, [bundle, 'mcp', '--http', '--host', '192.0.2.1'], {
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    other.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const code = await new Promise<number | null>((resolve) => other.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/--host 192\.0\.2\.1 is reachable from other machines: give a token of at least 32 characters/);
  }, 60_000);
});
