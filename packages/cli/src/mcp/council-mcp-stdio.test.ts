// `council mcp` end to end: the SDK's own Client over stdio against the bundled executable (apps/cli/dist, built
// by `pnpm build`), its models played by the OpenRouter test server on 127.0.0.1.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const bundle = fileURLToPath(new URL('../../../../apps/cli/dist/council.js', import.meta.url));
const KEY = 'sk-or-MCP-KEY-CANARY-5d1e';
const QUERY = 'How should we migrate the billing tables? MCP-QUERY-CANARY-93b7';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];

let server: TestServer;
let home = '';
const stderr: string[] = [];
const clientErrors: Error[] = [];
const clients: Client[] = [];

/** Starts `council mcp` on stdio with this environment and connects the SDK's client to it. */
async function connect(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, 'mcp'],
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => void stderr.push(chunk.toString('utf8')));
  const client = new Client({ name: 'council-test', version: '1.0.0' });
  // A line on stdout that is not a protocol message would surface here.
  client.onerror = (error) => void clientErrors.push(error);
  await client.connect(transport);
  clients.push(client);
  return client;
}

function councilEnv(dir: string): Record<string, string> {
  return {
    LLM_COUNCIL_HOME: dir,
    OPENROUTER_API_KEY: KEY,
    OPENROUTER_BASE_URL: server.url,
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    LLM_COUNCIL_BIAS_CONSENT: '2',
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => relative(dir, join(dir, f)))
    .sort();
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').trim().split('\n');
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

let client: Client;

beforeAll(async () => {
  expect(statSync(bundle).isFile(), 'run `pnpm build` first: this test drives the bundled executable').toBe(true);
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  home = mkdtempSync(join(tmpdir(), 'council-mcp-'));
  client = await connect(councilEnv(home));
}, 30_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  await server.close();
});

describe('council mcp over stdio (the bundled executable)', () => {
  it('lists its five tools, each with an input and an output schema, and the session resource template', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'bias_report',
      'consult_council',
      'get_session',
      'leaderboard',
      'list_sessions',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    expect(tools.find((t) => t.name === 'consult_council')!.inputSchema.required).toEqual(['query']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['council://sessions/{id}']);
  });

  let sessionId = '';

  it('consult_council runs the council, reports progress per stage and member in order, and saves what `ask` saves', async () => {
    // Steps only (a heartbeat's fractional progress could come in on a machine slow enough to take 10 s).
    const progress: Progress[] = [];
    const result = (await client.callTool(
      { name: 'consult_council', arguments: { query: QUERY, members: MEMBERS, seed: 3 } },
      undefined,
      { onprogress: (p) => void (Number.isInteger(p.progress) && progress.push(p)), timeout: 60_000 },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as {
      sessionId: string;
      complete: boolean;
      synthesis: string;
      leaderboard: { candidate: string }[];
      excluded: unknown[];
      saved: { history: boolean; biasRecords: number; telemetryEvent: boolean };
      usage: { tokens: number; costUsd: number };
    };
    sessionId = out.sessionId;
    expect(out.complete).toBe(true);
    expect(out.synthesis).toBe('Start with characterisation tests around the riskiest module.');
    expect(out.leaderboard.map((e) => e.candidate).sort()).toEqual([...MEMBERS].sort());
    expect(out.excluded).toEqual([]);
    // 3 answers + 3 reviews + 1 synthesis, each reported at 100 + 50 tokens and $0.001 by the test server.
    expect(out.usage.tokens).toBe(7 * 150);
    expect(out.usage.costUsd).toBeCloseTo(0.007, 10);
    // 3 reviewers × 3 candidates, one record each (self-reviews included).
    expect(out.saved).toEqual({ consent: 2, history: true, biasRecords: 9, telemetryEvent: true });
    expect(text(result)).toContain('Start with characterisation tests');

    // Progress: stage 1 starts, 3 answers, stage 2 starts, 3 reviews, stage 3 starts, the synthesis: 10 steps.
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(progress.at(-1)!.total).toBe(10);
    const kinds = progress.map(
      (p) =>
        /^stage (\d) of 3/.exec(p.message ?? '')?.[0] ??
        /^stage (\d): \S+ (answered|reviewed|synthesised)/
          .exec(p.message ?? '')
          ?.slice(1)
          .join(' '),
    );
    expect(kinds).toEqual([
      'stage 1 of 3',
      '1 answered',
      '1 answered',
      '1 answered',
      'stage 2 of 3',
      '2 reviewed',
      '2 reviewed',
      '2 reviewed',
      'stage 3 of 3',
      '3 synthesised',
    ]);

    // `ask` with the same council into another home writes the same files, with as many lines in each.
    const askHome = mkdtempSync(join(tmpdir(), 'council-mcp-ask-'));
    // (Not spawnSync: the test server answers from this process's event loop.)
    await promisify(execFile)(process.execPath, [bundle, 'ask', QUERY, '--models', MEMBERS.join(','), '--seed', '3'], {
      env: { PATH: process.env['PATH'] ?? '', ...councilEnv(askHome) },
    });
    expect(filesUnder(home)).toEqual(filesUnder(askHome));
    for (const file of filesUnder(askHome)) {
      if (file.endsWith('.jsonl'))
        expect(lines(join(home, file)), file).toHaveLength(lines(join(askHome, file)).length);
    }
    expect(
      (JSON.parse(lines(join(home, 'history.jsonl'))[0]!) as { session: { sessionId: string } }).session.sessionId,
    ).toBe(sessionId);
  }, 60_000);

  it('get_session, list_sessions, leaderboard, bias_report and the session resource read what was saved', async () => {
    const got = (await client.callTool({
      name: 'get_session',
      arguments: { id: sessionId.slice(0, 10) },
    })) as CallToolResult;
    expect(got.isError).toBeFalsy();
    expect((got.structuredContent as { sessionId: string; simulated: boolean }).sessionId).toBe(sessionId);
    expect(text(got)).toContain(`Session ${sessionId}`);

    const listed = (await client.callTool({ name: 'list_sessions', arguments: { limit: 5 } })) as CallToolResult;
    expect((listed.structuredContent as { sessions: { sessionId: string; members: string[] }[] }).sessions).toEqual([
      expect.objectContaining({ sessionId, members: MEMBERS }),
    ]);

    const board = (await client.callTool({ name: 'leaderboard', arguments: {} })) as CallToolResult;
    const doc = board.structuredContent as { sessions: number; borda: { candidate: string; appearances: number }[] };
    expect(doc.sessions).toBe(1);
    expect(doc.borda.map((b) => b.candidate).sort()).toEqual([...MEMBERS].sort());
    expect(text(board)).toContain('Cross-query leaderboard over 1 session:');

    const report = (await client.callTool({ name: 'bias_report', arguments: { sessions: 50 } })) as CallToolResult;
    expect(report.isError).toBeFalsy();
    const summary = report.structuredContent as {
      window: { sessions: number; observations: number };
      confidence: string;
      flags: unknown[];
      input: { kept: number };
    };
    expect(summary.window.sessions).toBe(1);
    expect(summary.input.kept).toBe(9);
    // One session is far below ADR-018's ten: no metric, no flag.
    expect(summary.confidence).toBe('insufficient_data');
    expect(summary.flags).toEqual([]);

    const resource = await client.readResource({ uri: `council://sessions/${sessionId}` });
    const first = resource.contents[0] as { text: string; mimeType: string };
    expect(first.mimeType).toBe('application/json');
    expect((JSON.parse(first.text) as { sessionId: string }).sessionId).toBe(sessionId);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`council://sessions/${sessionId}`);
  }, 60_000);

  it('continues a conversation (continueFrom) with a pool of config.yaml as the members', async () => {
    writeFileSync(join(home, 'config.yaml'), 'pools:\n  trio: [test/alpha, test/beta, test/gamma]\n');
    const result = (await client.callTool({
      name: 'consult_council',
      arguments: { query: 'And the invoices table?', members: ['@trio'], continueFrom: sessionId.slice(0, 12) },
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    const out = result.structuredContent as {
      sessionId: string;
      conversation: { id: string; previousSessionId: string } | null;
      leaderboard: { candidate: string }[];
    };
    expect(out.conversation?.previousSessionId).toBe(sessionId);
    expect(out.leaderboard.map((e) => e.candidate).sort()).toEqual([...MEMBERS].sort());
    // Every member saw the previous answer as context.
    const prompts = server.requests.slice(-7).map((r) => JSON.stringify(r.body));
    expect(
      prompts.filter((p) => p.includes('Start with characterisation tests around the riskiest module')).length,
    ).toBeGreaterThanOrEqual(3);
    rmSync(join(home, 'config.yaml'));
  }, 60_000);

  it("a cancelled consult_council aborts the council's calls, saves nothing, and the server goes on serving", async () => {
    const before = filesUnder(home).map((f) => [f, readFileSync(join(home, f), 'utf8')]);
    const controller = new AbortController();
    let answered = 0;
    const call = client.callTool(
      // test/hang never answers: the council waits in stage 1 until it is cancelled.
      { name: 'consult_council', arguments: { query: QUERY, members: ['test/alpha', 'test/beta', 'test/hang'] } },
      undefined,
      {
        signal: controller.signal,
        timeout: 60_000,
        onprogress: (p) => {
          if (/answered/.test(p.message ?? '') && ++answered === 2) controller.abort('the user pressed stop');
        },
      },
    );
    await expect(call).rejects.toThrow(/stop|abort/i);
    // The hanging request's connection is closed by the abort, not left open until the stage timeout.
    // No wall-clock bound: a connection left open until test/hang's 120 s stage timeout fails on this test's 60 s one.
    while (server.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    expect((await client.listTools()).tools).toHaveLength(5);
    expect(filesUnder(home).map((f) => [f, readFileSync(join(home, f), 'utf8')])).toEqual(before);
  }, 60_000);

  it('a client that goes away mid-council (stdin closed) ends the server at once, the council aborted and nothing saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-mcp-gone-'));
    const child = spawn(process.execPath, [bundle, 'mcp'], {
      env: { PATH: process.env['PATH'] ?? '', ...councilEnv(dir) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let out = '';
    let answered = 0;
    let closed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      answered = (out.match(/answered in/g) ?? []).length;
      if (answered === 2 && !closed) {
        closed = true;
        child.stdin.end();
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'consult_council',
        arguments: { query: QUERY, members: ['test/alpha', 'test/beta', 'test/hang'] },
        _meta: { progressToken: 'p' },
      },
    });
    // 'At once', without a wall-clock bound: test/hang holds stage 1 until its 120 s timeout, so a server that waited
    // for the council instead of aborting it would fail on this test's 30 s timeout, and would save the session.
    expect(await exited).toBe(0);
    expect(closed).toBe(true);
    expect(filesUnder(dir)).toEqual([]);
    // No answer was sent for the abandoned call.
    expect(out).not.toContain('"id":2');
  }, 30_000);

  it('answers a message over 10 MiB and a line that is not JSON with JSON-RPC errors, logs each, and serves on (issue 27)', async () => {
    const child = spawn(process.execPath, [bundle, 'mcp'], {
      env: { PATH: process.env['PATH'] ?? '', ...councilEnv(mkdtempSync(join(tmpdir(), 'council-mcp-big-'))) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const replies = new Map<string, Record<string, unknown>>();
    let out = '';
    const waiting: { key: string; resolve: () => void }[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (!('id' in message)) continue;
        const key = JSON.stringify(message['id']);
        replies.set(key, message);
        for (const w of waiting.filter((x) => x.key === key)) w.resolve();
      }
    });
    // The server exiting before it answers fails the test at once (the SDK's transport closed, and the process exited 13).
    const gone = exited.then((code) =>
      Promise.reject(new Error(`council mcp exited ${code} before answering; stderr: ${err}`)),
    );
    gone.catch(() => undefined);
    child.stdin.on('error', () => undefined);
    const reply = (id: unknown) => {
      const key = JSON.stringify(id);
      if (replies.has(key)) return Promise.resolve(replies.get(key)!);
      return Promise.race([
        gone,
        new Promise<Record<string, unknown>>((resolve) =>
          waiting.push({ key, resolve: () => resolve(replies.get(key)!) }),
        ),
      ]);
    };
    const send = (line: string) =>
      new Promise<void>((resolve) => (child.stdin.write(`${line}\n`) ? resolve() : child.stdin.once('drain', resolve)));
    await send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    expect(await reply(1)).toHaveProperty('result');
    await send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    // 11 MiB of question, written as the SDK's client writes a request (its id last).
    const big = JSON.stringify({
      method: 'tools/call',
      params: { name: 'consult_council', arguments: { query: `${QUERY} ${'x'.repeat(11 * 1024 * 1024)}` } },
      jsonrpc: '2.0',
      id: 2,
    });
    await send(big);
    expect(await reply(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32600,
        message: `Message of ${Buffer.byteLength(big)} bytes is over the limit of 10485760 bytes (10.0 MiB): send a smaller one.`,
      },
    });
    await send(`{"jsonrpc": "2.0", "id": 3, "method": "tools/list"`);
    expect(await reply(null)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the line is not JSON. Send one JSON-RPC message per line.' },
    });
    await send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }));
    expect(((await reply(4))['result'] as { tools: unknown[] }).tools).toHaveLength(5);
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(err).toMatch(/council mcp: refused a message of 11\.0 MiB, over the 10\.0 MiB limit \(request id 2\)\n/);
    expect(err).toContain('council mcp: a line on stdin is not JSON: answered with a parse error (-32700)\n');
    expect(err).not.toContain('MCP-QUERY-CANARY');
  }, 60_000);

  it('answers each bad input with a one-line tool error, and stays up', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['consult_council', { query: '' }, /query is empty/],
      ['consult_council', { query: QUERY, members: ['test/alpha'] }, /at least two models/],
      ['consult_council', { query: QUERY, members: [] }, /members is empty/],
      ['consult_council', { query: QUERY, members: ['@no-such-pool'] }, /Unknown model pool "@no-such-pool"/],
      [
        'consult_council',
        { query: QUERY, members: ['test/alpha', 'nosuch:model'] },
        /Cannot use the model "nosuch:model"/,
      ],
      [
        'consult_council',
        { query: `${QUERY} PLEASE-FAIL`, members: MEMBERS },
        /Only 0 of 3 members answered; the quorum is 2/,
      ],
      ['consult_council', { query: QUERY, members: MEMBERS, strategy: 'no-such-strategy' }, /no-such-strategy/],
      ['consult_council', { query: QUERY, members: MEMBERS, mode: 'democracy' }, /mode/],
      ['get_session', { id: 'zzzz' }, /No session "zzzz"/],
      ['bias_report', { sessions: 0 }, /sessions/],
      ['leaderboard', { category: 'poetry' }, /category/],
      ['list_sessions', { limit: -3 }, /limit/],
    ];
    const before = lines(join(home, 'history.jsonl')).length;
    for (const [name, args, reason] of cases) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 30_000,
      })) as CallToolResult;
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(result)).toMatch(reason);
      expect(text(result)).not.toContain('\n');
    }
    expect(lines(join(home, 'history.jsonl'))).toHaveLength(before);

    // The cost cap (as ask's --max-cost): stopped before the reviews, saved with what finished, a one-line tool error.
    const capped = (await client.callTool({
      name: 'consult_council',
      arguments: { query: QUERY, members: MEMBERS, maxCostUsd: 0.0045 },
    })) as CallToolResult;
    expect(capped.isError).toBe(true);
    expect(text(capped)).toMatch(
      /^Cost cap reached\. Stopped by the cost cap before stage 2 \(review\): \$0\.0030 spent and about \$0\.\d{4} more estimated for it, .* over the \$0\.0045 cap\. .* Session \S+ was saved with what finished\.$/,
    );
    expect(text(capped)).not.toContain('\n');
    expect(capped.structuredContent).toMatchObject({ complete: false, synthesis: null, leaderboard: [] });
    expect(lines(join(home, 'history.jsonl'))).toHaveLength(before + 1);

    // Without the key: one line naming the variable, before any model is called.
    const requests = server.requests.length;
    const keyless = await connect({
      LLM_COUNCIL_HOME: mkdtempSync(join(tmpdir(), 'council-mcp-nokey-')),
      OPENROUTER_BASE_URL: server.url,
    });
    const missing = (await keyless.callTool({
      name: 'consult_council',
      arguments: { query: QUERY, members: MEMBERS },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^No API key set: OPENROUTER_API_KEY \(for test\/alpha, test\/beta, test\/gamma\)/);
    expect(server.requests.length).toBe(requests);
  }, 90_000);

  it("works offline with the README's simulated-provider entry pasted as is, members from its environment", async () => {
    // The `council-demo` entry of the README's mcpServers blocks, with the clone's path filled in.
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)\n```/g)]
      .filter((m) => m[1]!.includes('mcpServers'))
      .map(
        (m) =>
          JSON.parse(m[1]!) as {
            mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
          },
      );
    const entry = blocks.find((b) => 'council-demo' in b.mcpServers)!.mcpServers['council-demo']!;
    expect(entry.command).toBe('node');
    const args = entry.args.map((a) => (a === '/absolute/path/to/council/apps/cli/dist/council.js' ? bundle : a));
    expect(args).toEqual([bundle, 'mcp']);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: {
        PATH: process.env['PATH'] ?? '',
        LLM_COUNCIL_HOME: mkdtempSync(join(tmpdir(), 'council-mcp-sim-')),
        ...entry.env,
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => void stderr.push(chunk.toString('utf8')));
    const sim = new Client({ name: 'council-test', version: '1.0.0' });
    await sim.connect(transport);
    clients.push(sim);
    const result = (await sim.callTool({
      name: 'consult_council',
      arguments: { query: 'Which queue should we use?' },
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    const out = result.structuredContent as {
      simulated: boolean;
      complete: boolean;
      synthesis: string;
      leaderboard: { candidate: string }[];
    };
    expect(out).toMatchObject({ simulated: true, complete: true });
    expect(out.leaderboard.map((e) => e.candidate).sort()).toEqual([
      'simulated:ada',
      'simulated:basil',
      'simulated:cleo',
    ]);
    expect(out.synthesis.length).toBeGreaterThan(0);
    expect(text(result)).toContain('[simulated]');
  }, 30_000);

  it('never lets the query or the key reach stderr, a file (but the local history, for the query), or stdout outside protocol messages', () => {
    const log = stderr.join('');
    expect(log).toContain('council mcp: serving on stdio');
    // The local history keeps the user's question (issue 30 item 5: history_questions, default true); no other file.
    expect(readFileSync(join(home, 'history.jsonl'), 'utf8')).toContain('MCP-QUERY-CANARY');
    for (const canary of ['MCP-QUERY-CANARY', 'MCP-KEY-CANARY']) {
      expect(log).not.toContain(canary);
      for (const file of filesUnder(home))
        if (canary === 'MCP-KEY-CANARY' || file !== 'history.jsonl')
          expect(readFileSync(join(home, file), 'utf8'), file).not.toContain(canary);
    }
    expect(clientErrors).toEqual([]);
  });
});
