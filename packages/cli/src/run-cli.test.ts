import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

describe('runCli', () => {
  it('prints the version it was given and exits 0', async () => {
    const c = capture();
    const code = await runCli(['--version'], { version: '9.8.7', io: c.io });
    expect(code).toBe(0);
    expect(c.out()).toContain('9.8.7');
    expect(c.err()).toBe('');
  });

  it('prints help with examples on stdout', async () => {
    const c = capture();
    const code = await runCli(['--help'], { version: '1.0.0', io: c.io });
    expect(code).toBe(0);
    expect(c.out()).toMatch(/Usage:/);
    expect(c.out()).toMatch(/Examples/);
  });

  it('rejects an unknown command with exit code 2 and a one-line hint on stderr', async () => {
    const c = capture();
    const code = await runCli(['frobnicate'], { version: '1.0.0', io: c.io });
    expect(code).toBe(2);
    expect(c.err()).toBe('council: Unknown command "frobnicate". Run "council --help" to see the commands.\n');
    expect(c.out()).toBe('');
  });
});
