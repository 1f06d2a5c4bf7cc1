import { describe, expect, it } from 'vitest';
import { closestName, joinNegativeValues } from './cli-argv.js';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';

async function run(argv: string[]) {
  const c = captureIo();
  const code = await runCli(argv, {
    version: '1.0.0',
    io: c.io,
    env: { LLM_COUNCIL_HOME: '/nonexistent/council-home' },
    cwd: '/tmp',
  });
  return { code, out: c.out(), err: c.err() };
}

describe('usage slips (issue 15 item 12)', () => {
  it('says a negative number must be positive instead of reading it as an unknown short option', async () => {
    expect(await run(['ask', 'q', '--models', 'a,b,c', '--timeout', '-5s'])).toEqual({
      code: 2,
      out: '',
      err: 'council: --timeout must be positive, got "-5s". Example: --timeout 60s.\n',
    });
    expect(await run(['bias-report', '--sessions', '-1'])).toEqual({
      code: 2,
      out: '',
      err: 'council: --sessions must be positive, got -1. Example: --sessions 1.\n',
    });
    expect(await run(['history', 'list', '--limit', '-3'])).toEqual({
      code: 2,
      out: '',
      err: 'council: --limit must be positive, got -3. Example: --limit 1.\n',
    });
  });

  it('leaves a negative-looking word alone after a switch that takes no value', () => {
    expect(joinNegativeValues(['ask', '--json', '-5', '--seed', '-2'], new Set(['seed']))).toEqual([
      'ask',
      '--json',
      '-5',
      '--seed=-2',
    ]);
  });

  it('joins a lone - (stdin) to a flag that takes a value, and leaves it alone after a switch', () => {
    expect(joinNegativeValues(['gate', '--evidence', '-', '--json', '-'], new Set(['evidence']))).toEqual([
      'gate',
      '--evidence=-',
      '--json',
      '-',
    ]);
  });

  it('suggests the flag a near miss meant', async () => {
    expect(await run(['ask', 'q', '--model', 'a,b,c'])).toEqual({
      code: 2,
      out: '',
      err: 'council: Unknown option `--model`; did you mean `--models`? Run "council ask --help" for the options.\n',
    });
    expect((await run(['bias-report', '--sesions', '5'])).err).toContain('did you mean `--sessions`?');
    // Nothing near: cac's message, and where the command's options are (issue 30 item 10: no placeholder left in).
    expect((await run(['ask', 'q', '--frobnicate'])).err).toBe(
      'council: Unknown option `--frobnicate`. Run "council ask --help" for the options.\n',
    );
    expect((await run(['history', 'show', '--frobnicate'])).err).toBe(
      'council: Unknown option `--frobnicate`. Run "council history --help" for the options.\n',
    );
  });

  it('suggests the command a near miss meant', async () => {
    expect(await run(['dmeo'])).toEqual({
      code: 2,
      out: '',
      err: 'council: Unknown command "dmeo". Did you mean "demo"? Run "council --help" to see the commands.\n',
    });
    expect((await run(['leaderbord'])).err).toContain('Did you mean "leaderboard"?');
    expect((await run(['xyzzy'])).err).toBe(
      'council: Unknown command "xyzzy". Run "council --help" to see the commands.\n',
    );
  });

  it('counts a slip as at most one edit in short words and two in longer ones', () => {
    expect(closestName('--model', ['--models', '--mode'])).toBe('--models');
    expect(closestName('ak', ['ask'])).toBe('ask');
    expect(closestName('xx', ['ask'])).toBeUndefined();
    expect(closestName('--tiemout', ['--timeout'])).toBe('--timeout');
  });
});
