import { queryCategories } from '@council/bias-store';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';

/** Every command the executable offers; each must have help with examples. */
const COMMANDS = [
  'config',
  'doctor',
  'ask',
  'bias-report',
  'demo',
  'batch',
  'leaderboard',
  'history',
  'personalities',
  'feedback',
  'telemetry',
];

async function run(argv: string[], env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(argv, { version: '9.8.7', io: c.io, env, cwd: '/tmp' });
  return { code, out: c.out(), err: c.err() };
}

describe('runCli', () => {
  it('prints the version it was given and exits 0', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('9.8.7');
    expect(r.err).toBe('');
  });

  it('prints help with examples and exit codes on stdout, also with no arguments', async () => {
    for (const argv of [['--help'], []]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/Usage:/);
      expect(r.out).toMatch(/Examples:\n {2}council demo/);
      expect(r.out).toContain('0 success, 1 runtime failure, 2 usage error');
      expect(r.err).toBe('');
    }
  });

  it.each(COMMANDS)('gives "%s" its own help with examples', async (command) => {
    const r = await run([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`$ council ${command}`);
    expect(r.out).toMatch(new RegExp(`Examples:\\n {2}council ${command}`));
  });

  it('does not describe --no-persist as on by default', async () => {
    for (const command of ['ask', 'batch']) {
      const r = await run([command, '--help']);
      expect(r.out).toMatch(/--no-persist +Save no/);
      expect(r.out).not.toMatch(/--no-persist.*\(default: true\)/);
    }
  });

  it('rejects a leaderboard category that sessions can never have', async () => {
    const r = await run(['leaderboard', '--category', 'codign']);
    expect(r.code).toBe(2);
    // The list must stay the one bias-store assigns sessions to.
    expect(r.err).toBe(`council: --category must be one of ${queryCategories.join(', ')}, got "codign".\n`);
    expect(r.out).toBe('');
  });

  it('rejects an unknown command with exit code 2 and a one-line hint on stderr', async () => {
    const r = await run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('council: Unknown command "frobnicate". Run "council --help" to see the commands.\n');
    expect(r.out).toBe('');
  });

  it('rejects an unknown option with exit code 2 and one line', async () => {
    const r = await run(['doctor', '--frob']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('council: Unknown option `--frob`. Run "council doctor --help" for the options.\n');
  });

  it('rejects a bad option value with exit code 2 naming the option', async () => {
    const r = await run(['doctor', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('council: --timeout expects a duration such as 30, 30s, 1500ms or 2m, got "soon".\n');
  });

  it('reports an invalid environment variable as a usage error in one line, with the stack only under --verbose', async () => {
    const r = await run(['config', 'show'], { LLM_COUNCIL_BIAS_CONSENT: 'high' });
    expect(r.code).toBe(2);
    expect(r.err.split('\n')).toHaveLength(2); // one line and the final newline
    expect(r.err).toMatch(/^council: LLM_COUNCIL_BIAS_CONSENT="high" is not valid/);
    const v = await run(['config', 'show', '--verbose'], { LLM_COUNCIL_BIAS_CONSENT: 'high' });
    expect(v.code).toBe(2);
    expect(v.err).toMatch(/\n {4}at /);
  });

  it('honours --home for every command', async () => {
    const r = await run(['config', 'path', '--home', '/somewhere/else']);
    expect(r).toEqual({ code: 0, out: '/somewhere/else\n', err: '' });
  });
});
