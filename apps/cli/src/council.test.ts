import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the bundled council executable', () => {
  it('is one file that starts with a node shebang', () => {
    expect(statSync(bundle).isFile()).toBe(true);
    expect(readFileSync(bundle, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('prints the app version from package.json', () => {
    const out = execFileSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' });
    expect(out.trim()).toContain(packageJson.version);
  }, 60_000);

  it('stops quietly when the reader of its output goes away (`council --help | head -1`)', async () => {
    // The pipe is closed before the executable writes: its write fails with EPIPE.
    const child = spawn(process.execPath, [bundle, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('still saves the session when the reader of `ask` goes away', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-app-'));
    const args = [bundle, 'ask', 'Which queue?', '--models', 'simulated:ada,simulated:basil'];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'], LLM_COUNCIL_HOME: home },
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(readFileSync(join(home, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('exits 2 on an unknown command', () => {
    const result = spawnSync(process.execPath, [bundle, 'no-such-command'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Unknown command "no-such-command"/);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('config path prints the home it was given, and config show --json never prints a key', () => {
    const home = mkdtempSync(join(tmpdir(), 'council-app-'));
    const env = { ...process.env, LLM_COUNCIL_HOME: home, OPENROUTER_API_KEY: 'sk-or-APP-CANARY' };
    expect(execFileSync(process.execPath, [bundle, 'config', 'path'], { encoding: 'utf8', env })).toBe(`${home}\n`);
    const show = execFileSync(process.execPath, [bundle, 'config', 'show', '--json'], { encoding: 'utf8', env });
    expect((JSON.parse(show) as { keys: Record<string, string> }).keys['OPENROUTER_API_KEY']).toBe('present');
    expect(show).not.toContain('APP-CANARY');
  }, 60_000);

  it('doctor --offline exits 0 with a readable home and prints no colour codes into a pipe', () => {
    const home = mkdtempSync(join(tmpdir(), 'council-app-'));
    const result = spawnSync(process.execPath, [bundle, 'doctor', '--offline'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], LLM_COUNCIL_HOME: home },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/home directory\s+│ ok/);
    expect(result.stdout).not.toContain('\u001b[');
  }, 60_000);

  it('exits 2 with one line on a bad environment value', () => {
    const result = spawnSync(process.execPath, [bundle, 'config', 'show'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], LLM_COUNCIL_BIAS_CONSENT: '9' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 60_000);
});
