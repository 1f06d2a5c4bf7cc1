import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../dist/council-telemetry.js', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('council-telemetry', () => {
  it('prints its version', () => {
    expect(execFileSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' })).toBe(`${packageJson.version}\n`);
  });

  it('exits 2 with a hint on an unknown command', () => {
    const result = spawnSync(process.execPath, [bundle, 'nope'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Run "council-telemetry --help"');
  });
});
