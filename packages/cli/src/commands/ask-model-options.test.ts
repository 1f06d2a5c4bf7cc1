import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// What `llm` users reach for first (issue 30 item 15): a system prompt and a temperature, by flag or per model in
// config.yaml, checked on the wire: the bodies the scripted OpenRouter-style server received.
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const KEY = 'sk-or-v1-MODEL-OPTIONS';
let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

interface Body {
  model: string;
  temperature?: number;
  messages: { role: string; content: string }[];
}

async function ask(args: string[], config?: string) {
  const home = mkdtempSync(join(tmpdir(), 'council-model-options-'));
  if (config !== undefined) writeFileSync(join(home, 'config.yaml'), config);
  const c = captureIo({ tty: false });
  const env = { LLM_COUNCIL_HOME: home, OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY };
  const before = server.requests.length;
  const code = await runCli(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--no-persist', ...args], {
    version: '1.0.0',
    io: c.io,
    env,
    cwd: home,
  });
  const bodies = server.requests.slice(before).map((r) => r.body as Body);
  // The answers are the calls whose last message is the question itself.
  const answers = bodies.filter((b) => b.messages.at(-1)?.content === 'Which sort is stable?');
  return { code, err: c.err(), bodies, answers };
}

describe('ask --system and -o temperature=… (issue 30 item 15)', () => {
  it('sends no system message and no temperature when neither is set', async () => {
    const r = await ask([]);
    expect(r.code).toBe(0);
    expect(r.answers).toHaveLength(3);
    for (const body of r.answers) expect(body.messages.map((m) => m.role)).toEqual(['user']);
    for (const body of r.bodies) expect(body.temperature).toBeUndefined();
  }, 30_000);

  it("sends --system before each member's question and the temperature in every call", async () => {
    const r = await ask(['--system', 'Answer in one sentence.', '-o', 'temperature=0.2']);
    expect(r.err).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.answers.map((b) => b.model).sort()).toEqual(MEMBERS);
    for (const body of r.answers)
      expect(body.messages).toEqual([
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'Which sort is stable?' },
      ]);
    // 3 answers, 3 reviews, 1 synthesis: every call carries it.
    expect(r.bodies).toHaveLength(7);
    for (const body of r.bodies) expect(body.temperature).toBe(0.2);
  }, 30_000);

  it("takes config.yaml's model_options per model id, and the flags win over it", async () => {
    const config = [
      'model_options:',
      '  test/alpha:',
      '    system: You are terse.',
      '    temperature: 0.7',
      '  test/beta:',
      '    temperature: 0',
      '',
    ].join('\n');
    const r = await ask([], config);
    expect(r.code).toBe(0);
    const answer = (model: string) => r.answers.find((b) => b.model === model)!;
    expect(answer('test/alpha').messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(answer('test/beta').messages.map((m) => m.role)).toEqual(['user']);
    expect(answer('test/alpha').temperature).toBe(0.7);
    expect(answer('test/beta').temperature).toBe(0);
    expect(answer('test/gamma').temperature).toBeUndefined();
    const flagged = await ask(['-o', 'temperature=1.5', '--system', 'Be brief.'], config);
    expect(flagged.code).toBe(0);
    for (const body of flagged.bodies) expect(body.temperature).toBe(1.5);
    for (const body of flagged.answers) expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  }, 30_000);

  it('refuses a temperature out of range and an option it does not pass on, naming what it accepts', async () => {
    const high = await ask(['-o', 'temperature=3']);
    expect(high.code).toBe(2);
    expect(high.err).toContain('-o temperature=3 must be a number from 0 to 2');
    expect(high.bodies).toHaveLength(0);
    const other = await ask(['-o', 'top_k=5']);
    expect(other.code).toBe(2);
    expect(other.err).toContain('-o top_k is not a model option Council passes on; accepted keys: temperature.');
    const bad = await ask([], 'model_options:\n  test/alpha:\n    temprature: 1\n');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('temprature');
    expect(bad.err).toContain('accepted keys: system, temperature');
  }, 30_000);
});
