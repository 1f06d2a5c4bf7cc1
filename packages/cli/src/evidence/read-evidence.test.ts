import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { readEvidence } from './read-evidence.js';

// Built from pieces, so no scanner mistakes this file for a leak.
const openaiKey = ['sk', 'proj', 'Zq4vN8rT2wX6yB1cD5eF9gH3'].join('-');
const awsKey = 'AKIA' + 'Z7Q2XK4M9P3LW8TB';

function workspace(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'council-evidence-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const noStdin = { stdinIsTTY: true };

describe('readEvidence', () => {
  it('reads files and directories in order, leaving out ignored, binary and .git files with reasons', async () => {
    const cwd = workspace({
      '.councilignore': '*.lock\n',
      'notes.md': 'release notes',
      'logs/app.log': 'started\nstopped\n',
      'logs/deps.lock': 'lock',
      'logs/image.png': Buffer.from([0x89, 0x50, 0x00, 0x47]),
      'logs/.git/HEAD': 'ref',
    });
    const read = await readEvidence({ sources: ['notes.md', 'logs'], cwd, io: noStdin, redact: false });
    expect(read.items).toEqual([
      { name: 'notes.md', text: 'release notes' },
      { name: 'logs/app.log', text: 'started\nstopped\n' },
    ]);
    expect(read.excluded).toEqual([
      { name: 'logs/deps.lock', reason: 'matches .councilignore pattern *.lock' },
      { name: 'logs/image.png', reason: 'binary file (not UTF-8 text)' },
    ]);
  });

  it('refuses a secret, naming file, line and kind and never the secret', async () => {
    const cwd = workspace({
      'config.ts': `const a = 1;\nconst key = "${openaiKey}";\n`,
      'infra.tf': `id = "${awsKey}"`,
    });
    const error = await readEvidence({ sources: ['.'], cwd, io: noStdin, redact: false }).catch((e: unknown) => e);
    expect(CliError.isInstance(error)).toBe(true);
    const message = (error as CliError).message;
    expect(message).toContain('config.ts:2:14: an OpenAI API key (sk-…)');
    expect(message).toContain('infra.tf:1:7: an AWS access key id (AKIA…)');
    expect(message).toContain('--redact-secrets');
    expect(message).not.toContain('Zq4vN8');
    expect(message).not.toContain('Z7Q2XK');
  });

  it('with redact, replaces the secrets, leaves .env files out and lists both', async () => {
    const cwd = workspace({ 'config.ts': `key = "${openaiKey}"\n`, '.env': 'TOKEN=x', '.env.example': 'TOKEN=' });
    const read = await readEvidence({ sources: ['.'], cwd, io: noStdin, redact: true });
    expect(read.items).toEqual([
      { name: '.env.example', text: 'TOKEN=' },
      { name: 'config.ts', text: 'key = "[REDACTED openai-key]"\n' },
    ]);
    expect(read.excluded).toEqual([{ name: '.env', reason: 'a .env file (environment secrets): left out' }]);
    expect(read.redacted).toEqual([
      { name: 'config.ts', line: 1, kind: 'openai-key', description: 'an OpenAI API key (sk-…)' },
    ]);
  });

  it('refuses a .env file by default', async () => {
    const cwd = workspace({ '.env.local': 'A=1' });
    await expect(readEvidence({ sources: ['.env.local'], cwd, io: noStdin, redact: false })).rejects.toThrow(
      '.env.local: a .env file (environment secrets)',
    );
  });

  it('drops a diff’s sections for ignored and .env files, and keeps the rest', async () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '+export const a = 1;',
      'diff --git a/.env b/.env',
      '+TOKEN=abc',
      'diff --git a/dist/bundle.js b/dist/bundle.js',
      '+minified',
      '',
    ].join('\n');
    const cwd = workspace({ '.councilignore': 'dist/\n' });
    const read = await readEvidence({
      sources: ['-'],
      cwd,
      io: { stdinIsTTY: false, readStdin: () => Promise.resolve(Buffer.from(diff)) },
      redact: true,
    });
    expect(read.items).toEqual([{ name: 'stdin', text: 'diff --git a/src/a.ts b/src/a.ts\n+export const a = 1;\n' }]);
    expect(read.excluded).toEqual([
      { name: 'stdin (.env in the diff)', reason: 'a .env file (environment secrets): left out' },
      { name: 'stdin (dist/bundle.js in the diff)', reason: 'matches .councilignore pattern dist/' },
    ]);
  });

  it('says so when a path does not exist or stdin is a terminal', async () => {
    const cwd = workspace({});
    await expect(readEvidence({ sources: ['nope.txt'], cwd, io: noStdin, redact: false })).rejects.toThrow(
      'Cannot read the evidence nope.txt: no such file or directory.',
    );
    await expect(readEvidence({ sources: ['-'], cwd, io: noStdin, redact: false })).rejects.toThrow(
      'nothing is piped in',
    );
  });
});
