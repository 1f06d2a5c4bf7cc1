import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeDirectory } from './make-directory.js';

const self = fileURLToPath(new URL('./make-directory.ts', import.meta.url));

describe('makeDirectory', () => {
  it('creates missing levels with mode 0700 and leaves an existing directory alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'council-mkdir-'));
    const deep = join(root, 'a', 'b', 'c');
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
    expect(() => makeDirectory(deep)).not.toThrow();
  });

  it('names a file in the way', () => {
    const root = mkdtempSync(join(tmpdir(), 'council-mkdir-'));
    writeFileSync(join(root, 'file'), 'x');
    expect(() => makeDirectory(join(root, 'file', 'sub'))).toThrow(
      `Cannot create the directory ${join(root, 'file', 'sub')}: a component of the path is a file, not a directory; fix the path (ENOTDIR).`,
    );
  });

  // Node's recursive mkdir spins forever at 100% CPU here, blocking the event loop (no test timeout can fire), so
  // the call runs in a child process that is killed after 20 s.
  it.runIf(process.platform === 'linux')(
    'fails at once under /proc instead of spinning',
    () => {
      const program = `import { makeDirectory } from ${JSON.stringify(self)}; try { makeDirectory('/proc/council-test/home'); } catch (error) { console.log(error.message); }`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(child.signal).toBeNull();
      expect(child.stdout).toBe(
        'Cannot create the directory /proc/council-test: this file system does not allow new directories there (ENOENT); choose a directory on a writable file system.\n',
      );
    },
    30_000,
  );
});
