import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const runCliModule = fileURLToPath(new URL('../run-cli.ts', import.meta.url));

describe('ask with a home the file system will not create (issue 15 item 12)', () => {
  // Under /proc, Node's recursive mkdir spins at 100% CPU forever and blocks the event loop, so no test timeout could
  // fire: `ask` runs in a child process that is killed after 20 s.
  it.runIf(process.platform === 'linux')(
    'answers, then says in one line that nothing could be saved, and exits 1',
    () => {
      const program = [
        `import { runCli } from ${JSON.stringify(runCliModule)};`,
        'const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };',
        "const code = await runCli(['ask', 'Which sort is stable?', '--models', 'simulated:ada,simulated:basil,simulated:cleo'], { version: '1.0.0', io, env: { LLM_COUNCIL_HOME: '/proc/council-test' } });",
        'process.exitCode = code;',
      ].join('\n');
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(child.signal).toBeNull();
      expect(child.status).toBe(1);
      expect(child.stdout).toContain('Synthesised from: simulated:');
      expect(child.stderr.trimEnd().split('\n').at(-1)).toBe(
        'council: The session was not saved: cannot create the directory /proc/council-test: this file system does not allow new directories there (ENOENT). Nothing of it was written to disk; choose a directory on a writable file system before the next session.',
      );
    },
    30_000,
  );
});
