// Issue 27, item 4: credentials in base URLs, and the text of configuration files, reach no output channel —
// stdout, stderr, the files of the home, `council serve`'s API and the MCP tools — through the CLI's own entry points,
// against model servers on 127.0.0.1.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createOpenRouterTestServer } from '@council/providers/test';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCouncilMcpServer } from './mcp/create-council-mcp-server.js';
import { runCli } from './run-cli.js';
import { serveCouncil } from './serve/serve-council.js';
import { createServeClient } from './serve/serve-test-client.js';
import { captureIo, testContext } from './testing/capture-io.js';
import { historyEntry, writeHistory } from './testing/history-fixture.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

const KEY = 'sk-or-v1-SCRUB-TEST-KEY';
/** The password of a base URL's user-info, and the value of its `?key=`: neither may be shown or saved anywhere. */
const PASS = 'CANARY-PASS-4f1c';
const QUERY_KEY = 'CANARY-QKEY-9b2e';
const TOKEN = 'scrub-test-serve-token-0123456789abcdef';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];

let hosted: TestServer;
let local: TestServer;
let quoting: TestServer;

beforeAll(async () => {
  // OpenRouter's stand-in (it checks the key); a local server without a key (llama.cpp's), which takes Basic
  // credentials from the URL; and a server whose every answer is a 404 quoting the request line, query and all.
  hosted = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  local = await startCouncilTestServer({ contributors: MEMBERS });
  quoting = await createOpenRouterTestServer({
    respond: (request) => ({ kind: 'error', status: 404, message: `No route for POST ${request.path}` }),
  });
});
afterAll(async () => {
  await Promise.all([hosted.close(), local.close(), quoting.close()]);
});

/** `url` with `someone:PASS@` in its authority and `?key=QUERY_KEY` after its path. */
function withCredentials(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//someone:${PASS}@${parsed.host}${parsed.pathname}?key=${QUERY_KEY}`;
}

/**
 * A council of five: three on OpenRouter (whose base URL carries `?key=`), `llamacpp:test/delta` on a local server
 * whose base URL carries a user name, password and `?key=` (it answers), and `vllm:test/down` on the quoting
 * server (it fails, and its error quotes the URL it was sent).
 */
const COUNCIL = [...MEMBERS, 'llamacpp:test/delta', 'vllm:test/down'];
function councilEnv(home: string): Record<string, string> {
  return {
    LLM_COUNCIL_HOME: home,
    OPENROUTER_BASE_URL: `${hosted.url}?key=${QUERY_KEY}`,
    OPENROUTER_API_KEY: KEY,
    LLAMACPP_BASE_URL: withCredentials(local.url),
    VLLM_BASE_URL: withCredentials(quoting.url),
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    LLM_COUNCIL_BIAS_CONSENT: '2',
  };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

function expectClean(text: string, where: string): void {
  expect(text, where).not.toContain(PASS);
  expect(text, where).not.toContain(QUERY_KEY);
}

function expectHomeClean(home: string): void {
  for (const file of filesUnder(home)) expectClean(readFileSync(file, 'utf8'), file);
}

async function ask(args: string[], env: Record<string, string>) {
  const c = captureIo();
  const code = await runCli(['ask', 'How do I add tests to a legacy module?', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: env['LLM_COUNCIL_HOME']!,
  });
  return { code, out: c.out(), err: c.err() };
}

describe('URL credentials and query keys reach no output (issue 27)', () => {
  it('council ask: stdout, --json, stderr, history, bias records, contributions and the outbox', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-'));
    const text = await ask(
      ['--models', COUNCIL.join(','), '--chairman', 'test/alpha', '--retries', '0'],
      councilEnv(home),
    );
    const json = await ask(
      ['--models', COUNCIL.join(','), '--chairman', 'test/alpha', '--retries', '0', '--json'],
      councilEnv(home),
    );
    for (const r of [text, json]) {
      expect(r.err).not.toMatch(/^council: /m);
      expect(r.code).toBe(0);
      expectClean(r.out, 'stdout');
      expectClean(r.err, 'stderr');
    }
    // The failing member is excluded with its error, which quoted the URL: it is shown, scrubbed.
    expect(text.out).toContain('Excluded: vllm:test/down at stage 1 (error)');
    expect(text.out).toContain('/api/v1/chat/completions?key=[REDACTED]');
    const doc = JSON.parse(json.out) as {
      excluded: { member: string; message: string }[];
      stage1: { member: string; error: unknown }[];
    };
    expect(doc.excluded.map((e) => e.member)).toEqual(['vllm:test/down']);
    expect(doc.excluded[0]!.message).toContain('?key=[REDACTED]');
    // The member behind credentials answered: the password went as Basic authentication, the key in the query.
    expect(doc.stage1.find((s) => s.member === 'llamacpp:test/delta')!.error).toBeNull();
    const sent = local.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`someone:${PASS}`).toString('base64')}`);
    expect(sent.path).toBe(`/api/v1/chat/completions?key=${QUERY_KEY}`);
    expect(hosted.requests.at(-1)!.path).toBe(`/api/v1/chat/completions?key=${QUERY_KEY}`);
    // Everything was saved — two sessions' history, bias records, contributions, outbox events — and none of it holds them.
    const history = readFileSync(join(home, 'history.jsonl'), 'utf8');
    expect(history.trim().split('\n')).toHaveLength(2);
    expect(history).toContain('?key=[REDACTED]');
    for (const file of ['bias_metrics.jsonl', 'contributions.jsonl', 'telemetry/outbox.jsonl'])
      expect(existsSync(join(home, file)), file).toBe(true);
    expectHomeClean(home);
  }, 60_000);

  it('council ask with a user name and password in OPENROUTER_BASE_URL: one clear line, neither shown', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-'));
    const before = hosted.requests.length;
    const r = await ask(['--models', MEMBERS.join(','), '--retries', '0'], {
      ...councilEnv(home),
      OPENROUTER_BASE_URL: withCredentials(hosted.url),
    });
    expect(r.code).toBe(1);
    const last = r.err.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^council: .*quorum/i);
    expect(last).toContain(
      'holds a user name and password, which would be sent as HTTP Basic authentication, but openrouter sends its API key in the Authorization header',
    );
    expect(last).toContain(`http://${new URL(hosted.url).host}/api/v1/chat/completions?key=[REDACTED]`);
    expectClean(r.out + r.err, 'output');
    expect(hosted.requests.length).toBe(before);
    expectHomeClean(home);
  }, 30_000);

  it('a base URL that is no URL is refused before anything runs, its value not shown', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-'));
    const r = await ask(['--models', MEMBERS.join(',')], {
      ...councilEnv(home),
      OPENROUTER_BASE_URL: `someone:${PASS}@127.0.0.1:9/api/v1`,
    });
    expect(r.code).toBe(2);
    // Parsed as a URL, this one's "scheme" is the user name: not even that is shown.
    expect(r.err).toBe(
      "council: OPENROUTER_BASE_URL is not an http:// or https:// URL (its value is not shown: it may hold a credential). Give the server's address with its scheme, e.g. http://127.0.0.1:8080/v1, or unset it.\n",
    );
  });

  it("council doctor: the local servers' rows show their addresses scrubbed, and are probed at the address set", async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-'));
    const c = captureIo();
    const code = await runCli(['doctor', '--json'], { version: '1.2.3', io: c.io, env: councilEnv(home), cwd: home });
    expectClean(c.out() + c.err(), 'doctor');
    const checks = (JSON.parse(c.out()) as { checks: { check: string; detail: string }[] }).checks;
    const local = checks.find((x) => x.check === 'llamacpp reachable')!;
    expect(local.detail).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/v1/models\\?key=\\[REDACTED\\]: HTTP 404`),
    );
    expect([0, 1]).toContain(code);
  }, 30_000);

  it('council serve: the event stream, the session, the list and the server log', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-'));
    const lines: string[] = [];
    const ctx = { ...testContext({ env: councilEnv(home), home }).ctx, now: () => new Date() };
    const server = await serveCouncil({
      ctx,
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: null,
      log: (l) => lines.push(l),
    });
    try {
      const client = createServeClient({ url: server.url, token: TOKEN });
      const events = await client.events(
        await client.start({ query: 'How do I test a legacy module?', members: COUNCIL, chairman: 'test/alpha' }),
      );
      const streamed = JSON.stringify(events);
      expect(events.at(-1)!.data).toEqual({ status: 'finished' });
      expect(streamed).toContain('?key=[REDACTED]');
      const sessionId = (events.at(-2)!.data as { session: { sessionId: string } }).session.sessionId;
      // The issue's case: OpenRouter's base URL with a user name and password, through serve.
      const failing = await client.events(
        await client.start({
          query: 'q?',
          members: ['test/alpha', 'test/beta', 'vllm:test/down'],
          chairman: 'test/alpha',
        }),
      );
      const bodies = [
        streamed,
        JSON.stringify(failing),
        (await client.get(`/api/sessions/${sessionId}`)).text,
        (await client.get('/api/sessions')).text,
        lines.join('\n'),
      ];
      for (const [i, body] of bodies.entries()) expectClean(body, `serve response ${i}`);
      expectHomeClean(home);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("council mcp: consult_council's result and get_session, and a failing council's tool error", async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-'));
    const t = testContext({ env: councilEnv(home), home });
    const logged: string[] = [];
    const server = createCouncilMcpServer({ ctx: t.ctx, log: (line) => void logged.push(line) });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'scrub-test', version: '1.0.0' });
    await client.connect(b);
    try {
      const result = (await client.callTool({
        name: 'consult_council',
        arguments: { query: 'How do I test a legacy module?', members: COUNCIL, chairman: 'test/alpha' },
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const sessionId = (result.structuredContent as { sessionId: string }).sessionId;
      const saved = (await client.callTool({ name: 'get_session', arguments: { id: sessionId } })) as CallToolResult;
      expect(JSON.stringify(saved)).toContain('?key=[REDACTED]');
      // Every member behind the quoting server: the quorum fails, and the tool error lists why.
      const failed = (await client.callTool({
        name: 'consult_council',
        arguments: { query: 'q?', members: ['vllm:test/down', 'vllm:test/down-2'] },
      })) as CallToolResult;
      expect(failed.isError).toBe(true);
      expect(JSON.stringify(failed.content)).toContain('?key=[REDACTED]');
      for (const [i, body] of [
        JSON.stringify(result),
        JSON.stringify(saved),
        JSON.stringify(failed),
        logged.join('\n'),
        t.out(),
        t.err(),
      ].entries())
        expectClean(body, `mcp ${i}`);
      expectHomeClean(home);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('a session saved before the scrubbing shows no credential (issue 27)', () => {
  it("history show, council serve's GET /api/sessions/:id and council mcp's get_session scrub what the line holds", async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-old-'));
    // The issue's history.jsonl: the stage error as fetch wrote it, the whole URL in it.
    const leaked = `Request cannot be constructed from a URL that includes credentials: http://user:${PASS}@127.0.0.1:9/api/v1/chat/completions?key=${QUERY_KEY}`;
    const entry = historyEntry({
      id: 'old-leaky-session-0001',
      timestamp: '2026-11-01T10:00:00.000Z',
      ranking: ['m/a', 'm/b', 'm/c'],
      bordaScores: { 'm/a': 1, 'm/b': 0.5, 'm/c': 0 },
    });
    const session = entry.session as unknown as {
      stage1: { error: unknown }[];
      excluded: unknown[];
      warnings: string[];
    };
    session.stage1[2]!.error = { reason: 'error', code: 'API_CALL', message: leaked };
    session.excluded = [{ member: 'm/c', stage: 1, reason: 'error', message: leaked }];
    session.warnings = [leaked];
    writeHistory(join(home, 'history.jsonl'), [entry]);
    expect(readFileSync(join(home, 'history.jsonl'), 'utf8')).toContain(PASS);
    const env = { LLM_COUNCIL_HOME: home };
    for (const args of [
      ['history', 'show', 'old-leaky'],
      ['history', 'show', 'old-leaky', '--json'],
      ['history', 'list', '--json'],
    ]) {
      const c = captureIo();
      expect(await runCli(args, { version: '1.2.3', io: c.io, env, cwd: home })).toBe(0);
      expectClean(c.out() + c.err(), args.join(' '));
      if (args[1] === 'show') expect(c.out()).toContain('?key=[REDACTED]');
    }
    const ctx = { ...testContext({ env, home }).ctx, now: () => new Date() };
    const served = await serveCouncil({
      ctx,
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: null,
      log: () => undefined,
    });
    try {
      const client = createServeClient({ url: served.url, token: TOKEN });
      const one = await client.get('/api/sessions/old-leaky-session-0001');
      expect(one.status).toBe(200);
      expect(one.text).toContain('?key=[REDACTED]');
      expectClean(one.text + (await client.get('/api/sessions')).text, 'serve');
    } finally {
      await served.close();
    }
    const t = testContext({ env, home });
    const mcp = createCouncilMcpServer({ ctx: t.ctx, log: () => undefined });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'scrub-test', version: '1.0.0' });
    await client.connect(b);
    const got = (await client.callTool({ name: 'get_session', arguments: { id: 'old-leaky' } })) as CallToolResult;
    const resource = await client.readResource({ uri: 'council://sessions/old-leaky-session-0001' });
    await client.close();
    expect(got.isError).toBeFalsy();
    expectClean(JSON.stringify(got) + JSON.stringify(resource), 'mcp');
  }, 30_000);
});

describe("a configuration file's text reaches no output (issue 27)", () => {
  const LINE = 'CANARY-SYSTEM-LINE-7a3d';
  // Two YAML mistakes whose library message quoted the text: an alias to no anchor, a block scalar's header.
  const texts = [`members: *${LINE}\n`, `chairman: |${LINE}\n  x\n`];

  /** A home whose config.yaml holds `text` (a symlink's target would be read the same way). */
  function homeWith(text: string): string {
    const home = mkdtempSync(join(tmpdir(), 'council-scrub-yaml-'));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.yaml'), text);
    return home;
  }

  it('stderr of council ask: the file and line, not the line', async () => {
    for (const text of texts) {
      const home = homeWith(text);
      const r = await ask(['--models', MEMBERS.join(',')], {
        LLM_COUNCIL_HOME: home,
        OPENROUTER_API_KEY: KEY,
        OPENROUTER_BASE_URL: hosted.url,
      });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        new RegExp(`^council: ${join(home, 'config.yaml').replace(/[.]/g, '\\.')}(:1)?: not valid YAML \\(`),
      );
      expect(r.out + r.err).not.toContain(LINE);
    }
  });

  it("council batch: a prompts file's bad line is named by its line, not quoted", async () => {
    const home = homeWith('');
    const cases: Array<[string, string]> = [
      [`{"prompt": "a", "id": "x"}\n{"prompt": ${LINE}}\n`, 'prompts.jsonl:2 is not valid JSON.'],
      [
        `{"prompt": "a", "id": "${LINE} secret"}\n{"prompt": "b", "id": "${LINE} secret"}\n`,
        'prompts.jsonl:2: the id of this line is already used on line 1; ids must be unique for --resume.',
      ],
      [
        '{"prompt": "a", "id": "q1"}\n{"prompt": "b", "id": "q1"}\n',
        'prompts.jsonl:2: the id "q1" is already used on line 1; ids must be unique for --resume.',
      ],
    ];
    for (const [text, expected] of cases) {
      writeFileSync(join(home, 'prompts.jsonl'), text);
      const c = captureIo();
      const code = await runCli(['batch', 'prompts.jsonl', '--models', MEMBERS.join(',')], {
        version: '1.2.3',
        io: c.io,
        env: { LLM_COUNCIL_HOME: home, OPENROUTER_API_KEY: KEY, OPENROUTER_BASE_URL: hosted.url },
        cwd: home,
      });
      expect(code).toBe(2);
      expect(c.err()).toContain(expected);
      expect(c.out() + c.err()).not.toContain(LINE);
    }
  });

  it("council serve's error body and council mcp's tool error", async () => {
    for (const text of texts) {
      const home = homeWith(text);
      const env = { LLM_COUNCIL_HOME: home, OPENROUTER_API_KEY: KEY, OPENROUTER_BASE_URL: hosted.url };
      const ctx = { ...testContext({ env, home }).ctx, now: () => new Date() };
      const server = await serveCouncil({
        ctx,
        host: '127.0.0.1',
        port: 0,
        token: TOKEN,
        demo: false,
        assets: null,
        log: () => undefined,
      });
      try {
        const client = createServeClient({ url: server.url, token: TOKEN });
        const refused = await client.post('/api/sessions', { query: 'q?', members: MEMBERS });
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(refused.text).toContain('not valid YAML');
        expect(refused.text).not.toContain(LINE);
        expect((await client.get('/api/config')).text).not.toContain(LINE);
      } finally {
        await server.close();
      }
      const t = testContext({ env, home });
      const mcp = createCouncilMcpServer({ ctx: t.ctx, log: () => undefined });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await mcp.connect(a);
      const client = new Client({ name: 'scrub-test', version: '1.0.0' });
      await client.connect(b);
      const result = (await client.callTool({
        name: 'consult_council',
        arguments: { query: 'q?', members: MEMBERS },
      })) as CallToolResult;
      await client.close();
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('not valid YAML');
      expect(JSON.stringify(result)).not.toContain(LINE);
    }
  }, 30_000);
});
