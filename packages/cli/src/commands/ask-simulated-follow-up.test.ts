import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

// Issue 30 item 14: a simulated follow-up answer picked the follow-up prompt's random boundary token as its topic.
describe('a simulated follow-up', () => {
  it("answers on the follow-up question's words, never the context's random token", async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-sim-follow-up-'));
    const run = async (argv: string[]) => {
      const c = captureIo();
      const code = await runCli(argv, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home });
      return { code, out: c.out(), err: c.err() };
    };
    const members = ['--models', 'simulated:ada,simulated:basil,simulated:cleo'];
    expect((await run(['ask', 'How should a small team test a legacy codebase?', ...members])).code).toBe(0);
    const r = await run(['ask', '--continue', 'How do rollbacks work?', '--json']);
    expect(r.code).toBe(0);
    const session = JSON.parse(r.out) as { stage1: { text: string }[] };
    for (const { text } of session.stage1) {
      expect(text).toContain('rollbacks');
      // The boundary token: 16 letters and digits, with a digit; the template's own words are not topics either.
      expect(text).not.toMatch(/\b(?=[a-z0-9]*\d)[a-z0-9]{16}\b/);
      expect(text).not.toMatch(/\bconversation\b/);
    }
  }, 30_000);
});
