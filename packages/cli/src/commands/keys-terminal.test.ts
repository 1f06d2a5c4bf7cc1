import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `council keys set` at a terminal (issue 30 item 15): the key is typed at a prompt that does not echo it. Driven
// through a real pseudo-terminal with util-linux `script`, against the bundled executable; skipped where either is
// missing.
const bundle = fileURLToPath(new URL('../../../../apps/cli/dist/council.js', import.meta.url));
const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
const available = script.status === 0 && existsSync(bundle);

describe('council keys set on a terminal', () => {
  it.skipIf(!available)(
    'prompts, does not echo the key, and saves it 0600',
    () => {
      const home = mkdtempSync(join(tmpdir(), 'council-keys-tty-'));
      const typescript = join(home, 'typescript.txt');
      const key = 'sk-TTY-NEVER-ECHOED-4321';
      // The key arrives after the prompt, ended by Enter (a carriage return, as a terminal in raw mode sends it).
      const r = spawnSync(
        'sh',
        [
          '-c',
          `(sleep 1; printf '%s\\r' "$KEY") | script -qec "$NODE $BUNDLE keys set openai --home $HOME_DIR" "$OUT" > /dev/null`,
        ],
        {
          encoding: 'utf8',
          timeout: 30_000,
          env: {
            PATH: process.env['PATH'] ?? '',
            KEY: key,
            NODE: process.execPath,
            BUNDLE: bundle,
            HOME_DIR: home,
            OUT: typescript,
          },
        },
      );
      expect(r.status).toBe(0);
      const screen = readFileSync(typescript, 'utf8');
      expect(screen).toContain('Paste the openai API key, then Enter (it is not shown): ');
      expect(screen).toContain(`Saved the openai key as OPENAI_API_KEY in ${join(home, 'keys')} (mode 0600).`);
      expect(screen).not.toContain(key);
      expect(readFileSync(join(home, 'keys'), 'utf8')).toContain(`OPENAI_API_KEY=${key}\n`);
      expect(statSync(join(home, 'keys')).mode & 0o777).toBe(0o600);
    },
    40_000,
  );
});
