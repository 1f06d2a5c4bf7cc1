import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenRouterTestServer } from '@council/providers/test';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { historyEntry, writeHistory } from '../testing/history-fixture.js';
import { runFeedbackCommand } from './feedback-command.js';
import { runPersonalitiesCommand } from './personalities-command.js';

let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: ['test/alpha'] });
});
afterAll(() => server.close());

const critiques = { 'm/a': { strengths: '- clear steps\n- good examples', weaknesses: 'Too long.' } };

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'council-fb-'));
  writeHistory(join(dir, 'history.jsonl'), [
    // Reviewers m/b and m/c critique m/a here (the fixture's first member writes no critiques).
    historyEntry({
      id: 's1',
      timestamp: '2026-11-20T10:00:00Z',
      ranking: ['m/x', 'm/b', 'm/c', 'm/a'],
      bordaScores: {},
      critiques,
    }),
    // Here m/a reviews too, but its critique of itself is not peer feedback: only m/c counts.
    historyEntry({
      id: 's2',
      timestamp: '2026-11-21T10:00:00Z',
      ranking: ['m/b', 'm/a', 'm/c'],
      bordaScores: {},
      critiques,
    }),
  ]);
  return dir;
}

describe('council feedback', () => {
  it('counts the themes peers wrote about a member, excluding its own self-reviews', async () => {
    const t = testContext({ home: home() });
    expect(await runFeedbackCommand({ id: 'm/a', json: true }, t.ctx)).toBe(0);
    const summary = JSON.parse(t.out()) as {
      reviews: number;
      sessions: number;
      strengths: { theme: string; count: number }[];
      weaknesses: { theme: string; count: number }[];
    };
    // s1: reviewers m/b and m/c (2 critiques); s2: m/c only (m/a's self-review and m/b, the fixture's silent first reviewer, do not count).
    expect(summary.reviews).toBe(3);
    expect(summary.sessions).toBe(2);
    expect(summary.strengths).toEqual([
      { theme: 'clear steps', count: 3 },
      { theme: 'good examples', count: 3 },
    ]);
    expect(summary.weaknesses).toEqual([{ theme: 'too long', count: 3 }]);
  });

  it('with --model but no key for it, stops in one line naming the variable', async () => {
    const t = testContext({ home: home(), env: {} });
    await expect(runFeedbackCommand({ id: 'm/a', model: 'openai/gpt-4o-mini' }, t.ctx)).rejects.toThrow(
      /^No API key set: OPENROUTER_API_KEY \(for openai\/gpt-4o-mini\)\. /,
    );
    expect(t.out()).toBe('');
  });

  it('names the members it knows when the id is unknown', async () => {
    await expect(runFeedbackCommand({ id: 'm/zz' }, testContext({ home: home() }).ctx)).rejects.toThrow(
      'No session in the history has a member "m/zz" (members: m/a, m/b, m/c, m/x).',
    );
  });
});

describe('council personalities', () => {
  function withPersonalities(): string {
    const dir = home();
    mkdirSync(join(dir, 'personalities'));
    writeFileSync(
      join(dir, 'personalities', 'careful.yaml'),
      'id: careful\nname: Careful\nmodel: test/alpha\nsystem_prompt: Be careful.\n',
    );
    writeFileSync(
      join(dir, 'personalities', 'bold.yaml'),
      'id: bold\nname: Bold\nmodel: test/beta\nsystem_prompt: Be bold.\n',
    );
    return dir;
  }

  it('lists and shows the YAML personalities', async () => {
    const dir = withPersonalities();
    const list = testContext({ home: dir });
    await runPersonalitiesCommand({ action: 'list', ids: [] }, list.ctx);
    expect(list.out()).toMatch(/bold +│ Bold +│ test\/beta/);
    expect(list.out()).toMatch(/careful +│ Careful +│ test\/alpha/);
    const show = testContext({ home: dir });
    await runPersonalitiesCommand({ action: 'show', ids: ['careful'] }, show.ctx);
    expect(show.out()).toContain('system_prompt: Be careful.');
    await expect(
      runPersonalitiesCommand({ action: 'show', ids: ['nope'] }, testContext({ home: dir }).ctx),
    ).rejects.toThrow(/No personality "nope" .*known: bold, careful/);
  });

  it('evolves two parents through a model on 127.0.0.1, records the lineage, and saves without overwriting', async () => {
    const dir = withPersonalities();
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: 'k' };
    const t = testContext({ home: dir, env });
    expect(await runPersonalitiesCommand({ action: 'evolve', ids: ['careful', 'bold'], save: true }, t.ctx)).toBe(0);
    const saved = readFileSync(join(dir, 'personalities', 'careful-bold.yaml'), 'utf8');
    expect(saved).toContain('id: careful-bold');
    expect(saved).toMatch(/parents:\n\s+- careful\n\s+- bold/);
    expect(t.out()).toBe(saved);
    await expect(
      runPersonalitiesCommand(
        { action: 'evolve', ids: ['careful', 'bold'], save: true },
        testContext({ home: dir, env }).ctx,
      ),
    ).rejects.toThrow(/already exists; nothing was overwritten/);
    expect(existsSync(join(dir, 'personalities', 'careful-bold.yaml'))).toBe(true);
    await expect(
      runPersonalitiesCommand({ action: 'evolve', ids: ['careful'] }, testContext({ home: dir, env }).ctx),
    ).rejects.toThrow(/needs two parent ids/);
  }, 20_000);

  it('refuses a simulated persona as the evolution model, and treats an unusable reply as a runtime failure', async () => {
    const dir = withPersonalities();
    const simulated = runPersonalitiesCommand(
      { action: 'evolve', ids: ['careful', 'bold'], model: 'simulated:ada' },
      testContext({ home: dir }).ctx,
    );
    await expect(simulated).rejects.toThrow(
      /^simulated:ada is a simulated persona: it plays council sessions but cannot design a personality\. Pass --model/,
    );
    await expect(simulated).rejects.toMatchObject({ code: 'USAGE' });
    const garbage = await createOpenRouterTestServer({ respond: () => ({ kind: 'text', text: 'name: [not closed' }) });
    try {
      const env = { OPENROUTER_BASE_URL: garbage.url, OPENROUTER_API_KEY: 'k' };
      const error: unknown = await runPersonalitiesCommand(
        { action: 'evolve', ids: ['careful', 'bold'] },
        testContext({ home: dir, env }).ctx,
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(CliError.isInstance(error) && error.code).toBe('RUNTIME');
      expect((error as Error).message).toMatch(/^the evolution model's reply \(test\/alpha\) is not valid YAML/);
      expect(existsSync(join(dir, 'personalities', 'careful-bold.yaml'))).toBe(false);
    } finally {
      await garbage.close();
    }
  });
});
