import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

const SIM = 'simulated:ada,simulated:basil,simulated:cleo';

async function council(args: string[], home: string) {
  const c = captureIo();
  const code = await runCli(args, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home });
  return { code, out: c.out(), err: c.err() };
}

// The first hour: `history show last` after a question with none of the function words the language heuristic knows
// ("Which test framework?") printed "language und", BCP 47's code for undetermined, as if it were a language.
describe('history show: the question’s language in words (issue 30 item 8, the first hour)', () => {
  it('says "not detected" for an undetermined language, and the code of one it detected', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-show-language-'));
    expect((await council(['ask', 'Which test framework?', '--models', SIM], home)).code).toBe(0);
    const undetermined = await council(['history', 'show', 'last'], home);
    expect(undetermined.out).toMatch(/^category \w+, [\d+–-]+ tokens, language not detected$/m);
    expect(undetermined.out).not.toContain('language und');

    // "the", "is" and "of" are English function words.
    expect((await council(['ask', 'What is the cost of the queue?', '--models', SIM], home)).code).toBe(0);
    expect((await council(['history', 'show', 'last'], home)).out).toMatch(
      /^category \w+, [\d+–-]+ tokens, language en$/m,
    );
  });
});
