import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from './cli-commands.js';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

const KEY = 'sk-or-v1-HELP-EXAMPLE-KEY';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: [], apiKey: KEY });
});
afterAll(() => server.close());

async function council(argv: string[], env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

/** A command line as a shell splits it: words, and double-quoted strings as one word. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("council --help's examples (issue 30 item 3)", () => {
  it('the headline `council ask` example, run as printed (against a local OpenRouter stand-in), ranks its members', async () => {
    const help = (await council(['--help'])).out;
    const line = help
      .split('\n')
      .map((l) => l.replace(/#.*$/, '').trim())
      .find((l) => l.startsWith('council ask '));
    expect(line).toBeDefined();
    const [, ...argv] = shellWords(line!);
    const home = mkdtempSync(join(tmpdir(), 'council-help-example-'));
    const run = await council([...argv, '--json'], {
      OPENROUTER_BASE_URL: server.url,
      OPENROUTER_API_KEY: KEY,
      LLM_COUNCIL_HOME: home,
    });
    expect(run.code, run.err).toBe(0);
    const doc = JSON.parse(run.out) as { leaderboard: { finalRank: number; voteCount: number }[] };
    // Every member answered and was reviewed: a leaderboard of at least three members, each ranked by votes.
    expect(doc.leaderboard.length).toBeGreaterThanOrEqual(3);
    expect(doc.leaderboard.every((entry) => entry.voteCount > 0)).toBe(true);
    expect(doc.leaderboard[0]!.finalRank).toBe(1);
  });

  it('every example that names members with --models names at least three, in every command help', async () => {
    const examples = [
      ...(await council(['--help'])).out.split('\n'),
      ...cliCommands.flatMap((command) => command.examples),
    ]
      .map((line) => line.trim())
      // Example command lines only (the command list's descriptions may name the flag too).
      .filter((line) => line.startsWith('council ') && line.includes('--models '));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const models = shellWords(example)[shellWords(example).indexOf('--models') + 1]!;
      // A pool (@name) or a personality list counts as the user's council; ids are counted.
      if (models.startsWith('@')) continue;
      expect(models.split(',').length, example).toBeGreaterThanOrEqual(3);
    }
  });
});
