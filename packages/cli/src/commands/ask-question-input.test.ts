import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-STDIN-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
beforeEach(() => server.reset());
afterAll(() => server.close());

/** Runs `council <args>` with a stdin that is a pipe holding `stdin` (or a terminal when `stdin` is undefined). */
async function council(args: string[], stdin?: Buffer | string) {
  const home = mkdtempSync(join(tmpdir(), 'council-question-'));
  const c = captureIo();
  let stdinReads = 0;
  const io: CliIo = {
    ...c.io,
    stdinIsTTY: stdin === undefined,
    readStdin: ({ maxBytes }) => {
      stdinReads++;
      const bytes = typeof stdin === 'string' ? Buffer.from(stdin) : (stdin ?? Buffer.alloc(0));
      // A pipe delivers in chunks; the reader stops just past the limit.
      return Promise.resolve(bytes.subarray(0, maxBytes));
    },
  };
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
  const code = await runCli(args, { version: '1.2.3', io, env, cwd: home });
  return { code, out: c.out(), err: c.err(), home, stdinReads: () => stdinReads };
}

/** The user turns the members were asked in stage 1. */
function answerPrompts(): string[] {
  return (
    server.requests
      .map((r) => (r.body as { messages?: { role: string; content: string }[] }).messages ?? [])
      .map((m) => m.at(-1)?.content ?? '')
      // Not a review (asked in text, or as structured output: 'Under "evaluations"'), not the chairman's prompt.
      .filter((c) => !c.includes('FINAL RANKING') && !c.includes('Under "evaluations"') && !c.includes('Chairman'))
  );
}

const ASK = ['--models', MEMBERS.join(','), '--no-persist'];

describe('the question from stdin or a file (issue 15 item 1)', () => {
  it('reads a piped question when none is given, and with -', async () => {
    const piped = await council(['ask', ...ASK], 'PIPED-QUESTION: which test first?\n');
    expect(piped.err).not.toContain('council: ');
    expect(piped.code).toBe(0);
    expect(answerPrompts().filter((p) => p.includes('PIPED-QUESTION: which test first?'))).toHaveLength(3);
    server.reset();
    const dash = await council(['ask', '-', ...ASK], 'DASH-QUESTION');
    expect(dash.code).toBe(0);
    expect(answerPrompts().filter((p) => p.includes('DASH-QUESTION'))).toHaveLength(3);
  }, 20_000);

  it('a question given as an argument wins over a non-terminal stdin, which is not read', async () => {
    const r = await council(['ask', 'ARG-QUESTION', ...ASK], 'ignored');
    expect(r.code).toBe(0);
    expect(r.stdinReads()).toBe(0);
    expect(answerPrompts().filter((p) => p.includes('ARG-QUESTION'))).toHaveLength(3);
  }, 20_000);

  it('--file reads a UTF-8 question longer than an argument can be (200 KiB), without its byte-order mark', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-qfile-'));
    const long = `FILE-QUESTION über: ${'x'.repeat(200 * 1024)}`;
    writeFileSync(join(dir, 'q.md'), `\uFEFF${long}`);
    const r = await council(['ask', '--file', join(dir, 'q.md'), ...ASK]);
    expect(r.err).not.toContain('council: ');
    expect(r.code).toBe(0);
    const prompts = answerPrompts().filter((p) => p.includes('FILE-QUESTION über'));
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toContain(long);
    expect(prompts[0]).not.toContain('\uFEFF');
  }, 20_000);

  it('refuses, in one line and with exit 2 before any request: too large, not UTF-8, missing, empty, ambiguous, no question', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-qfile-'));
    writeFileSync(join(dir, 'big.txt'), Buffer.alloc(1024 * 1024 + 1, 0x61));
    writeFileSync(join(dir, 'exactly.txt'), Buffer.alloc(1024 * 1024, 0x61));
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x3f]));
    writeFileSync(join(dir, 'blank.txt'), ' \n\t\n');
    const cases: [string[], Buffer | string | undefined, string][] = [
      [
        ['--file', join(dir, 'big.txt')],
        undefined,
        `council: The question file ${join(dir, 'big.txt')} is over 1.0 MiB; a question can be at most 1.0 MiB.`,
      ],
      [
        ['--file', join(dir, 'latin1.txt')],
        undefined,
        `council: The question file ${join(dir, 'latin1.txt')} is not UTF-8 text (invalid byte at offset 3).`,
      ],
      [
        ['--file', join(dir, 'missing.txt')],
        undefined,
        `council: Cannot read the question file ${join(dir, 'missing.txt')}: no such file.`,
      ],
      [['--file', dir], undefined, `council: Cannot read the question file ${dir}: it is a directory.`],
      [['--file', join(dir, 'blank.txt')], undefined, `council: The question file ${join(dir, 'blank.txt')} is empty.`],
      [
        ['-'],
        Buffer.alloc(1024 * 1024 + 5, 0x61),
        'council: The question on stdin is over 1.0 MiB; a question can be at most 1.0 MiB.',
      ],
      [['-'], '', 'council: The question on stdin is empty'],
      [
        [],
        undefined,
        'council: No question: council ask "your question", or pipe it in (echo "…" | council ask -), or --file PATH.',
      ],
      [
        ['a question', '--file', join(dir, 'blank.txt')],
        undefined,
        'council: Give the question either as an argument or with --file, not both.',
      ],
    ];
    for (const [args, stdin, message] of cases) {
      const r = await council(['ask', ...args, ...ASK], stdin);
      expect(r.code, message).toBe(2);
      expect(r.err.startsWith(message), `${r.err} should start with ${message}`).toBe(true);
      expect(r.err.trimEnd().split('\n'), message).toHaveLength(1);
      expect(r.out).toBe('');
    }
    expect(server.requests).toHaveLength(0);
    // Exactly at the limit is accepted (1 MiB of 'a').
    const edge = await council(['ask', '--file', join(dir, 'exactly.txt'), ...ASK]);
    expect(edge.code).toBe(0);
  }, 30_000);
});
