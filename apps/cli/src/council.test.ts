import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the bundled council executable', () => {
  it('is one file that starts with a node shebang', () => {
    expect(statSync(bundle).isFile()).toBe(true);
    expect(readFileSync(bundle, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('prints the app version from package.json', () => {
    const out = execFileSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' });
    expect(out.trim()).toContain(packageJson.version);
  });

  it('exits 2 on an unknown command', () => {
    const result = spawnSync(process.execPath, [bundle, 'no-such-command'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Unknown command "no-such-command"/);
    expect(result.stdout).toBe('');
  });
});
