import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContributors } from '@council/core';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { createStyle } from './create-style.js';
import { runCli } from './run-cli.js';
import { createSynthesisStreamPrinter } from './synthesis-stream-printer.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

const ANSWER = 'Write a characterisation test first.\n\n```ts\nit("bills", () => {});\n```\n\nThen refactor {safely}.';
const BLOCK = '\n\n```json\n{"contributors": [{"id": "a", "weight": 1, "reason": "r"}]}\n```\n';
const HEADING = 'Answer (chairman chair, balanced strategy, consensus mode)\n\n';

function streamInPieces(size: number, reply = ANSWER + BLOCK) {
  const writes: string[] = [];
  const printer = createSynthesisStreamPrinter({
    write: (t) => void writes.push(t),
    style: createStyle(false),
    simulated: false,
  });
  for (let i = 0; i < reply.length; i += size)
    printer.write({ chairman: 'chair', strategy: 'balanced', mode: 'consensus', text: reply.slice(i, i + size) });
  const beforeFinish = writes.join('');
  const streamed = printer.finish({ synthesis: { text: ANSWER, model: 'chair' } as never });
  return { streamed, beforeFinish, all: writes.join('') };
}

describe('createSynthesisStreamPrinter', () => {
  it('prints the answer as it arrives, whatever the piece size, and never the contributors block', () => {
    for (const size of [1, 2, 3, 5, 8, 13, 64, 1000]) {
      const r = streamInPieces(size);
      expect(r.streamed, `size ${size}`).toBe(true);
      expect(r.all, `size ${size}`).toBe(`${HEADING}${ANSWER}\n`);
      // Everything up to the metadata was out before the reply ended: the code block was released when it closed.
      expect(r.beforeFinish.startsWith(`${HEADING}${ANSWER}`), `size ${size}`).toBe(true);
      expect(r.all).not.toContain('contributors');
    }
  });

  it('marks a fallback chairman and prints its answer from the start', () => {
    const writes: string[] = [];
    const printer = createSynthesisStreamPrinter({
      write: (t) => void writes.push(t),
      style: createStyle(false),
      simulated: true,
    });
    printer.write({ chairman: 'first', strategy: 'balanced', mode: 'voting', text: 'Half a sen' });
    printer.write({ chairman: 'second', strategy: 'balanced', mode: 'voting', text: 'Whole answer.' });
    expect(printer.finish({ synthesis: { text: 'Whole answer.', model: 'second' } as never })).toBe(true);
    expect(writes.join('')).toBe(
      'Answer (chairman first, balanced strategy, voting mode) [simulated]\n\nHalf a sen\n\n[the chairman first stopped; second answers instead]\n\nWhole answer.\n',
    );
  });

  it("removes the model's terminal control sequences from what it prints, and still matches the parsed answer", () => {
    const writes: string[] = [];
    const printer = createSynthesisStreamPrinter({
      write: (t) => void writes.push(t),
      style: createStyle(false),
      simulated: false,
    });
    const answer = 'Clear\u001b[2J the screen?\u001b]0;owned\u0007 No.';
    // Split inside the first sequence: its ESC is removed in one piece, and "[2J" is then plain text.
    for (const text of ['Clear\u001b', '[2J the screen?\u001b]0;owned\u0007 No.'])
      printer.write({ chairman: 'c', strategy: 'balanced', mode: 'consensus', text });
    expect(printer.finish({ synthesis: { text: answer, model: 'c' } as never })).toBe(true);
    expect(writes.join('')).toBe(
      'Answer (chairman c, balanced strategy, consensus mode)\n\nClear[2J the screen? No.\n',
    );
  });

  it('prints nothing and reports false when nothing streamed; ends the line when every chairman failed', () => {
    const writes: string[] = [];
    const idle = createSynthesisStreamPrinter({
      write: (t) => void writes.push(t),
      style: createStyle(false),
      simulated: false,
    });
    expect(idle.finish({ synthesis: null })).toBe(false);
    expect(writes).toEqual([]);
    const failed = createSynthesisStreamPrinter({
      write: (t) => void writes.push(t),
      style: createStyle(false),
      simulated: false,
    });
    failed.write({ chairman: 'c', strategy: 'balanced', mode: 'consensus', text: 'partial' });
    expect(failed.finish({ synthesis: null })).toBe(false);
    expect(writes.join('')).toBe('Answer (chairman c, balanced strategy, consensus mode)\n\npartial\n\n');
  });

  // The answer `finish` gets is core's parseContributors(raw).text, which squeezes blank lines only when it cut a
  // contributors block out. A line opening with `{` is held to the end, so everything after it comes from `finish`.
  const CONFIG_ANSWER = 'Intro paragraph.\n\n\n\nUse this config:\n{\n  "retries": 3\n}\nDone.\n';
  function streamThenFinish(raw: string, size: number) {
    const writes: string[] = [];
    const printer = createSynthesisStreamPrinter({
      write: (t) => void writes.push(t),
      style: createStyle(false),
      simulated: false,
    });
    for (let i = 0; i < raw.length; i += size)
      printer.write({ chairman: 'chair', strategy: 'balanced', mode: 'consensus', text: raw.slice(i, i + size) });
    const streamed = printer.finish({
      synthesis: { text: parseContributors(raw, ['a']).text, model: 'chair' } as never,
    });
    return { streamed, all: writes.join('') };
  }

  it('prints the held end of an answer with no contributors block and 3+ newlines in a row', () => {
    for (const size of [1, 5, 1000]) {
      const r = streamThenFinish(CONFIG_ANSWER, size);
      expect(r.streamed, `size ${size}`).toBe(true);
      // The printed part keeps the chairman's four newlines; the held part follows, ending the line once.
      expect(r.all, `size ${size}`).toBe(
        `${HEADING}Intro paragraph.\n\n\n\nUse this config:\n{\n  "retries": 3\n}\nDone.\n`,
      );
    }
  });

  it('prints the held end when a bare contributors block follows (core squeezed the blank lines)', () => {
    const raw = `${CONFIG_ANSWER}\n{"contributors": [{"id": "a", "weight": 1, "reason": "r"}]}\n`;
    for (const size of [1, 5, 1000]) {
      const r = streamThenFinish(raw, size);
      expect(r.streamed, `size ${size}`).toBe(true);
      expect(r.all, `size ${size}`).toBe(
        `${HEADING}Intro paragraph.\n\n\n\nUse this config:\n{\n  "retries": 3\n}\nDone.\n`,
      );
    }
  });

  it('reports false when what was printed is not the start of the answer, so the answer is rendered in full', () => {
    const writes: string[] = [];
    const printer = createSynthesisStreamPrinter({
      write: (t) => void writes.push(t),
      style: createStyle(false),
      simulated: false,
    });
    printer.write({ chairman: 'chair', strategy: 'balanced', mode: 'consensus', text: 'A draft line.\n{ "x": 1 }' });
    expect(printer.finish({ synthesis: { text: 'Another answer altogether.', model: 'chair' } as never })).toBe(false);
    expect(writes.join('')).toBe(`${HEADING}A draft line.\n\n`);
  });
});

describe('council ask streams the synthesis to stdout (issue 15 item 2)', () => {
  const KEY = 'sk-or-v1-STREAM-KEY';
  const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
  let server: TestServer;
  beforeAll(async () => {
    // 6 characters every 15 ms: the chairman takes about a second to write its answer.
    server = await startCouncilTestServer({
      contributors: MEMBERS,
      apiKey: KEY,
      chairman: { text: ANSWER, chunkSize: 6, chunkDelayMs: 15 },
    });
  });
  afterAll(() => server.close());

  async function ask(args: string[]) {
    const home = mkdtempSync(join(tmpdir(), 'council-stream-'));
    const c = captureIo();
    // Each stdout write, with how many responses the server was still sending at that moment.
    const writes: { text: string; inFlight: number }[] = [];
    const io: CliIo = { ...c.io, stdout: (text) => void writes.push({ text, inFlight: server.inFlight }) };
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
    const code = await runCli(['ask', 'Which test first?', '--models', MEMBERS.join(','), '--no-persist', ...args], {
      version: '1.2.3',
      io,
      env,
      cwd: home,
    });
    return { code, writes, out: writes.map((w) => w.text).join(''), err: c.err() };
  }

  it('text mode: the answer reaches stdout while the chairman is still writing, then the rest of the report', async () => {
    const r = await ask([]);
    expect(r.code).toBe(0);
    const chairmanRequest = server.requests.at(-1)!;
    expect(chairmanRequest.stream).toBe(true);
    const answerWrites = r.writes.filter(
      (w) => w.text !== '' && ANSWER.includes(w.text.trim()) && w.text.trim() !== '',
    );
    expect(answerWrites.length).toBeGreaterThan(3);
    // Written while the response was still open: streamed, not printed at the end.
    expect(answerWrites[0]!.inFlight).toBe(1);
    expect(
      r.out.startsWith(
        `Answer (chairman test/alpha, balanced strategy, consensus mode)\n\n${ANSWER}\n\nSynthesised from: test/alpha (33%), test/beta (33%), test/gamma (33%)\n`,
      ),
    ).toBe(true);
    expect(r.out).not.toContain('"contributors"');
    expect(r.out.match(/Write a characterisation test first\./g)).toHaveLength(1);
    expect(r.out).toContain('Leaderboard');
  }, 20_000);

  it('stdout and stderr in one log (CI, 2>&1): no progress line inside the answer; stage 3 is done after it', async () => {
    // A '{' line is held until the chairman is done, so the end of this answer is printed by finish.
    const CONFIG = 'Use this config:\n{\n  "retries": 3\n}\nDone.';
    const configServer = await startCouncilTestServer({
      contributors: MEMBERS,
      apiKey: KEY,
      chairman: { text: CONFIG, chunkSize: 6, chunkDelayMs: 5 },
    });
    const home = mkdtempSync(join(tmpdir(), 'council-stream-'));
    // Both streams, neither a terminal, written into one buffer in the order they were written.
    const log: string[] = [];
    const io: CliIo = {
      stdout: (t) => void log.push(t),
      stderr: (t) => void log.push(t),
      stdoutIsTTY: false,
      stderrIsTTY: false,
    };
    const env = { OPENROUTER_BASE_URL: configServer.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
    const code = await runCli(['ask', 'Which test first?', '--models', MEMBERS.join(','), '--no-persist'], {
      version: '1.2.3',
      io,
      env,
      cwd: home,
    }).finally(() => configServer.close());
    expect(code).toBe(0);
    const all = log.join('');
    // The plain progress lines ran (stages 1 and 2 are reported before the answer)…
    expect(all).toMatch(/stage 2 \(reviews\) done: 3 reviewed, 3 of 3 rankings read \([\d.]+ s\)\n/);
    // …the answer is whole, with its line ended, before any stage-3 line; then the rest of the report.
    const answer = `Answer (chairman test/alpha, balanced strategy, consensus mode)\n\n${CONFIG}\n`;
    expect(all).toContain(answer);
    const after = all.slice(all.indexOf(answer) + answer.length);
    expect(after).toMatch(
      /^ {2}test\/alpha synthesised \([\d.]+ s\)\nstage 3 \(synthesis\) done: 1 synthesised \([\d.]+ s\)\n\nSynthesised from: test\/alpha/,
    );
    expect(all.match(/stage 3 \(synthesis\) done/g)).toHaveLength(1);
  }, 20_000);

  it('--json: the chairman is not streamed and stdout is one document', async () => {
    server.reset();
    const r = await ask(['--json']);
    expect(r.code).toBe(0);
    expect(server.requests.every((q) => !q.stream)).toBe(true);
    expect(r.writes).toHaveLength(1);
    expect((JSON.parse(r.out) as { synthesis: { text: string } }).synthesis.text).toBe(ANSWER);
  }, 20_000);
});
