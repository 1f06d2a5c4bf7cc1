import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-POOLS-KEY';
const POOLS = [
  'pools:',
  '  deep: [test/alpha, test/beta, test/gamma]',
  '  quick: [test/alpha, test/beta]',
  '  judges: [test/broken, test/delta]',
  '',
].join('\n');
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: ['test/alpha', 'test/beta', 'test/gamma'], apiKey: KEY });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function ask(args: string[], options: { config?: string; env?: Record<string, string> } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-pools-'));
  if (options.config !== undefined) writeFileSync(join(home, 'config.yaml'), options.config);
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home, ...options.env };
  const code = await runCli(['ask', 'How do I test a legacy module?', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: home,
  });
  return { code, out: c.out(), err: c.err() };
}

interface Doc {
  config: { members: string[]; chairman: string; chairmanFallbacks: string[] };
  stage1: Array<{ member: string }>;
  synthesis: { model: string } | null;
  excluded: Array<{ member: string; stage: number }>;
}

/** The models the server was asked for in one stage, in order of the requests' arrival (sorted, as they run in parallel). */
const askedModels = () => [...new Set(server.requests.map((r) => r.model ?? ''))].sort();

describe('named model pools (issue 15 item 11)', () => {
  it("--models @deep seats the pool's three models, in order", async () => {
    const r = await ask(['--models', '@deep', '--json'], { config: POOLS });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Doc;
    expect(doc.config.members).toEqual(['test/alpha', 'test/beta', 'test/gamma']);
    expect(doc.stage1.map((s) => s.member)).toEqual(['test/alpha', 'test/beta', 'test/gamma']);
    // 3 answers, 3 reviews, 1 synthesis by the first member.
    expect(server.requests).toHaveLength(7);
    expect(doc.synthesis?.model).toBe('test/alpha');
  }, 20_000);

  it('a pool mixes with plain ids (@quick,test/gamma), and LLM_COUNCIL_MODELS may name one', async () => {
    const mixed = await ask(['--models', '@quick,test/gamma', '--json'], { config: POOLS });
    expect((JSON.parse(mixed.out) as Doc).config.members).toEqual(['test/alpha', 'test/beta', 'test/gamma']);
    server.reset();
    const fromEnv = await ask(['--json'], { config: POOLS, env: { LLM_COUNCIL_MODELS: '@quick' } });
    expect(fromEnv.code).toBe(0);
    expect((JSON.parse(fromEnv.out) as Doc).config.members).toEqual(['test/alpha', 'test/beta']);
    expect(askedModels()).toEqual(['test/alpha', 'test/beta']);
  }, 20_000);

  it('--chairman @judges: the first chairs and the rest are its fallbacks (test/broken fails, test/delta synthesises)', async () => {
    const r = await ask(['--models', '@deep', '--chairman', '@judges', '--json'], { config: POOLS });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Doc;
    expect(doc.config.chairman).toBe('test/broken');
    expect(doc.config.chairmanFallbacks).toEqual(['test/delta']);
    expect(doc.synthesis?.model).toBe('test/delta');
    expect(doc.excluded).toEqual([expect.objectContaining({ member: 'test/broken', stage: 3 })]);
  }, 20_000);

  it('an unknown pool is one usage line naming the pools and the near miss, before any model is called', async () => {
    const r = await ask(['--models', '@deeep'], { config: POOLS });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'council: Unknown model pool "@deeep" in --models: the pools are @deep, @judges, @quick (did you mean @deep?). Define it under pools: in config.yaml, e.g. pools: { deeep: [model-a, model-b] }.\n',
    );
    expect(server.requests).toHaveLength(0);
    const none = await ask(['--models', 'test/alpha,test/beta', '--chairman', '@judges']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(
      /^council: Unknown model pool "@judges" in --chairman: no pools are defined\. Define it under pools: in config\.yaml/,
    );
  }, 20_000);

  it('batch takes pools too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-pools-batch-'));
    mkdirSync(join(dir, 'home'));
    writeFileSync(join(dir, 'home', 'config.yaml'), POOLS);
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\n');
    const c = captureIo();
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: join(dir, 'home') };
    const code = await runCli(['batch', 'prompts.txt', '--models', '@deep', '--chairman', '@judges'], {
      version: '1.2.3',
      io: c.io,
      env,
      cwd: dir,
    });
    expect(code).toBe(0);
    const line = JSON.parse(readFileSync(join(dir, 'prompts.txt.results.jsonl'), 'utf8').trim()) as { session: Doc };
    expect(line.session.config.members).toEqual(['test/alpha', 'test/beta', 'test/gamma']);
    expect(line.session.synthesis?.model).toBe('test/delta');
  }, 20_000);

  it('config show lists the pools and the limits', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-pools-'));
    writeFileSync(join(home, 'config.yaml'), `${POOLS}max_cost_usd: 0.25\n`);
    const c = captureIo();
    expect(
      await runCli(['config', 'show'], { version: '1.2.3', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home }),
    ).toBe(0);
    expect(c.out()).toMatch(
      /^pools +@deep \(test\/alpha, test\/beta, test\/gamma\); @quick \(test\/alpha, test\/beta\); @judges \(test\/broken, test\/delta\)$/m,
    );
    expect(c.out()).toMatch(/^limits +cost at most \$0\.25 a session, replies up to 4194304 bytes$/m);
  }, 20_000);

  it('a bad pools entry in config.yaml is named with its file and key', async () => {
    const r = await ask(['--models', '@deep'], { config: 'pools:\n  deep: []\n' });
    expect(r.code).toBe(2);
    // The key path as the file writes it, and its line (issue 27).
    expect(r.err).toMatch(/config\.yaml: "pools\.deep" \(line \d+\) must name at least one model/);
  }, 20_000);
});
