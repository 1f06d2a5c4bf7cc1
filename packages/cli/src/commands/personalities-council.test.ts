import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

let server: TestServer;
beforeAll(async () => {
  // Only the evolution model is on this server; the councils run on the offline simulated provider.
  server = await startCouncilTestServer({ contributors: [] });
});
afterAll(() => server.close());

/** A home with three personalities played by simulated personas. */
function homeWithPersonalities(): string {
  const home = mkdtempSync(join(tmpdir(), 'council-personas-'));
  mkdirSync(join(home, 'personalities'));
  const personas: [string, string, string][] = [
    ['careful', 'simulated:ada', 'Weigh every risk before you answer.'],
    ['bold', 'simulated:basil', 'Prefer the ambitious plan.'],
    ['steady', 'simulated:cleo', 'Keep it simple and proven.'],
  ];
  for (const [id, model, prompt] of personas)
    writeFileSync(
      join(home, 'personalities', `${id}.yaml`),
      `id: ${id}\nname: ${id}\nmodel: ${model}\nsystem_prompt: ${prompt}\n`,
    );
  return home;
}

async function council(args: string[], home: string) {
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: 'k', LLM_COUNCIL_HOME: home };
  const code = await runCli(args, { version: '1.2.3', io: c.io, env, cwd: home });
  return { code, out: c.out(), err: c.err() };
}

describe('personalities sit on councils from the CLI (issue 15 item 7)', () => {
  it('ask and batch seat personality ids (flags and config); feedback accumulates; evolve reads it', async () => {
    const home = homeWithPersonalities();
    // Before: "openrouter does not serve the model 'careful'". Now the id seats the personality on its model.
    const asked = await council(
      [
        'ask',
        'How should we plan a schema migration?',
        '--models',
        'careful,bold,steady',
        '--chairman',
        'careful',
        '--json',
      ],
      home,
    );
    expect(asked.err).not.toContain('council: ');
    expect(asked.code).toBe(0);
    const doc = JSON.parse(asked.out) as { stage1: { member: string; model: string }[]; synthesis: { model: string } };
    expect(doc.stage1.map((s) => [s.member, s.model])).toEqual([
      ['careful', 'simulated:ada'],
      ['bold', 'simulated:basil'],
      ['steady', 'simulated:cleo'],
    ]);
    expect(doc.synthesis.model).toBe('careful');

    // The configuration's members may be personality ids too; batch seats them the same way.
    writeFileSync(join(home, 'config.yaml'), 'members: [careful, bold, steady]\nchairman: steady\n');
    writeFileSync(join(home, 'prompts.txt'), 'Which queue should we use?\n');
    const batch = await council(['batch', join(home, 'prompts.txt')], home);
    expect(batch.err).not.toContain('council: ');
    expect(batch.code).toBe(0);
    const line = JSON.parse(readFileSync(join(home, 'prompts.txt.results.jsonl'), 'utf8').trim()) as {
      session: { stage1: { member: string }[]; synthesis: { model: string } };
    };
    expect(line.session.stage1.map((s) => s.member)).toEqual(['careful', 'bold', 'steady']);
    expect(line.session.synthesis.model).toBe('steady');

    // Two sessions in the history; in each, careful's answer is critiqued by its two peers (its own review is not feedback).
    const feedback = await council(['feedback', 'careful', '--json'], home);
    expect(feedback.code).toBe(0);
    expect(JSON.parse(feedback.out)).toMatchObject({ reviews: 4, sessions: 2 });

    // Evolution (a real model: here the 127.0.0.1 server) now reads that feedback: 4 reviews of careful + 4 of bold.
    const evolved = await council(
      ['personalities', 'evolve', 'careful', 'bold', '--model', 'test/evolver', '--save'],
      home,
    );
    expect(evolved.code).toBe(0);
    expect(evolved.err).toContain('Evolving careful + bold with test/evolver, using 8 peer reviews');
    const prompt = (server.requests.at(-1)!.body as { messages: { content: string }[] }).messages
      .map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('## careful (4 peer reviews in 2 sessions)');
    expect(prompt).toContain('## bold (4 peer reviews in 2 sessions)');
    expect(readFileSync(join(home, 'personalities', 'careful-bold.yaml'), 'utf8')).toMatch(
      /parents:\n\s+- careful\n\s+- bold/,
    );

    // The offspring sits on the next council like its parents.
    const next = await council(
      ['ask', 'And the rollback plan?', '--models', 'careful-bold,careful,bold', '--no-persist', '--json'],
      home,
    );
    expect(next.code).toBe(0);
    expect((JSON.parse(next.out) as { stage1: { member: string; model: string }[] }).stage1[0]).toMatchObject({
      member: 'careful-bold',
      model: 'test/alpha',
    });
  }, 30_000);

  it('a personality whose model needs a key that is not set is refused before any call, naming the model', async () => {
    const home = homeWithPersonalities();
    writeFileSync(
      join(home, 'personalities', 'remote.yaml'),
      'id: remote\nname: Remote\nmodel: anthropic:claude-x\nsystem_prompt: Be brief.\n',
    );
    const r = await council(['ask', 'q', '--models', 'careful,bold,remote'], home);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^council: No API key set: ANTHROPIC_API_KEY \(for anthropic:claude-x\)\./);
  });
});
