import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-SHOW-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

// The test server answers `Answer from <model>: ` and "write characterisation tests first. " repeated
// (model id length % 5) + 1 times: test/alpha and test/gamma (10 characters) once, test/beta (9) five times.
const TEXTS: Record<string, string> = {
  'test/alpha': 'Answer from test/alpha: write characterisation tests first.',
  'test/beta': `Answer from test/beta: ${'write characterisation tests first. '.repeat(5).trim()}`,
  'test/gamma': 'Answer from test/gamma: write characterisation tests first.',
};

async function ask(args: string[], options: { tty?: boolean } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-show-'));
  // Reviews in the text format, which the test server writes (what is shown does not depend on how a review was read).
  writeFileSync(join(home, 'config.yaml'), 'structured_reviews: false\n');
  const c = captureIo({ tty: options.tty ?? false, columns: 100 });
  // NO_COLOR: a terminal without colours, so the text is compared as written (the rendering has its own tests).
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home, NO_COLOR: '1' };
  const code = await runCli(['ask', 'SHOW-QUERY: how do I test a legacy module?', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: home,
  });
  return { code, out: c.out(), err: c.err(), home };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('ask --show (issue 26)', () => {
  it("on a terminal, shows each member's answer by default, once, in the members' order, above the streamed synthesis", async () => {
    const r = await ask(['--models', MEMBERS.join(','), '--no-persist'], { tty: true });
    const synthesis = r.out.indexOf('Answer (chairman test/alpha');
    expect(synthesis).toBeGreaterThan(0);
    let previous = -1;
    for (const m of MEMBERS) {
      const at = r.out.indexOf(`Answer from ${m}\n\n${TEXTS[m]}\n`);
      expect(at, m).toBeGreaterThan(previous);
      expect(count(r.out, `Answer from ${m}\n`), m).toBe(1);
      previous = at;
    }
    expect(previous).toBeLessThan(synthesis);
    expect(r.out).not.toContain('Review by');
    expect(r.out + r.err).not.toContain('SHOW-QUERY');
  }, 20_000);

  it('in a pipe, shows no answer by default (the output scripts read is unchanged), and shows them with --show answers', async () => {
    const piped = await ask(['--models', MEMBERS.join(','), '--no-persist']);
    expect(piped.out.startsWith('Answer (chairman test/alpha, balanced strategy, consensus mode)\n\n')).toBe(true);
    expect(piped.out).not.toContain('Answer from');
    const asked = await ask(['--models', MEMBERS.join(','), '--no-persist', '--show', 'answers']);
    for (const m of MEMBERS) expect(asked.out).toContain(`Answer from ${m}\n\n${TEXTS[m]}\n`);
    // And on a terminal, --show none shows none.
    const none = await ask(['--models', MEMBERS.join(','), '--no-persist', '--show', 'none'], { tty: true });
    expect(none.out).not.toContain('Answer from');
  }, 30_000);

  it("--show reviews names each reviewer's scores after the session: the server scores the n-th answer it shows 9 − 2n", async () => {
    const r = await ask(['--models', MEMBERS.join(','), '--show', 'reviews', '--seed', '11']);
    expect(r.out).not.toContain('Answer from');
    // Each reviewer's order as shown is in the saved session; from the test server's script, it ranks the answers in
    // that order and scores them 9, 7, 5, with "clear steps" and "no examples" for each.
    const saved = JSON.parse(readFileSync(join(r.home, 'history.jsonl'), 'utf8').trim()) as {
      session: { stage2: { reviewer: string; order: string[] }[] };
    };
    expect(saved.session.stage2).toHaveLength(3);
    for (const { reviewer, order } of saved.session.stage2) {
      const expected = [
        `Review by ${reviewer}`,
        `  ranking: ${order.join(' > ')}`,
        ...order.flatMap((member, i) => [
          `  ${member} (Response ${'ABC'[i]}${member === reviewer ? ', its own' : ''}): ${9 - 2 * i}/10`,
          '    strengths: clear steps',
          '    weaknesses: no examples',
        ]),
      ].join('\n');
      expect(r.out).toContain(`${expected}\n`);
    }
    // The reviews come before the synthesis.
    expect(r.out.indexOf('Review by')).toBeLessThan(r.out.indexOf('Answer (chairman'));
  }, 20_000);

  it('--show all shows the answers and then the reviews; --json ignores --show', async () => {
    const all = await ask(['--models', MEMBERS.join(','), '--no-persist', '--show', 'answers,reviews']);
    expect(all.out.indexOf('Answer from test/gamma')).toBeLessThan(all.out.indexOf('Reviews\n'));
    expect(all.out.indexOf('Reviews\n')).toBeLessThan(all.out.indexOf('Answer (chairman'));
    const json = await ask(['--models', MEMBERS.join(','), '--no-persist', '--show', 'all', '--json']);
    expect((JSON.parse(json.out) as { stage1: unknown[] }).stage1).toHaveLength(3);
  }, 30_000);

  it('when every chairman fails, prints every answer whatever --show says, and promises only what it shows', async () => {
    for (const extra of [[], ['--show', 'none']]) {
      const r = await ask(['--models', MEMBERS.join(','), '--chairman', 'test/broken', '--no-persist', ...extra]);
      // (The exit code of a partial session is another change's.)
      expect(r.out).toContain(
        "No synthesis: every chairman failed. The members' answers and the leaderboard below are kept.\n",
      );
      for (const m of MEMBERS) {
        expect(r.out).toContain(`Answer from ${m}\n\n${TEXTS[m]}\n`);
        expect(count(r.out, `Answer from ${m}\n`)).toBe(1);
      }
      expect(r.out.indexOf('Answer from test/gamma')).toBeLessThan(r.out.indexOf('Leaderboard'));
    }
    // On a terminal, where they are shown by default, they are printed once.
    const tty = await ask(['--models', MEMBERS.join(','), '--chairman', 'test/broken', '--no-persist'], { tty: true });
    for (const m of MEMBERS) expect(count(tty.out, `Answer from ${m}\n`)).toBe(1);
  }, 30_000);

  it('a member that failed is one line saying why', async () => {
    const r = await ask(['--models', [...MEMBERS, 'test/broken'].join(','), '--no-persist', '--show', 'answers']);
    expect(r.out).toMatch(
      /\nNo answer from test\/broken \(failed\): openrouter does not serve the model "test\/broken" \(HTTP 404/,
    );
  }, 20_000);

  it('rejects a --show it does not know, naming the choices', async () => {
    const r = await ask(['--models', MEMBERS.join(','), '--show', 'answers,votes']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'council: --show takes answers, reviews, all or none (or a comma list such as answers,reviews), got "votes".\n',
    );
    const both = await ask(['--models', MEMBERS.join(','), '--show', 'none,answers']);
    expect(both.code).toBe(2);
    expect(both.err).toBe('council: --show none cannot be combined with answers: give one or the other.\n');
  });
});
