import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownInvocation } from './own-invocation.js';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';

/** A fake app: `<root>/apps/cli/dist/council.js`, as the repository lays the executable out. */
function fakeApp(): { root: string; executable: string; packageDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'council-invocation-'));
  const packageDir = join(root, 'apps', 'cli');
  mkdirSync(join(packageDir, 'dist'), { recursive: true });
  const executable = join(packageDir, 'dist', 'council.js');
  writeFileSync(executable, '#!/usr/bin/env node\n');
  return { root, executable, packageDir };
}

describe('ownInvocation: how hints name the executable (issue 30 item 1)', () => {
  it('is `council` when `council` on PATH links to this executable, as `npm install --global ./apps/cli` makes it', () => {
    const app = fakeApp();
    // npm's layout: <prefix>/bin/council → ../lib/node_modules/@council/cli-app/dist/council.js, the package a link.
    const prefix = join(app.root, 'prefix');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    mkdirSync(join(prefix, 'lib', 'node_modules', '@council'), { recursive: true });
    symlinkSync(app.packageDir, join(prefix, 'lib', 'node_modules', '@council', 'cli-app'));
    symlinkSync('../lib/node_modules/@council/cli-app/dist/council.js', join(prefix, 'bin', 'council'));
    const path = ['/nonexistent', join(prefix, 'bin')].join(':');
    expect(ownInvocation({ executable: app.executable, path })).toEqual({
      command: 'council',
      onPath: true,
      packageDir: app.packageDir,
    });
  });

  it('is `node <path>` when no `council` is on PATH, or another one is', () => {
    const app = fakeApp();
    const other = fakeApp();
    const bin = join(app.root, 'bin');
    mkdirSync(bin);
    symlinkSync(other.executable, join(bin, 'council'));
    for (const path of [undefined, '', bin])
      expect(ownInvocation({ executable: app.executable, path })).toEqual({
        command: `node ${app.executable}`,
        onPath: false,
        packageDir: app.packageDir,
      });
  });

  it("the demo's hints use it: each printed command works as printed, and the PATH step is named when needed", async () => {
    const run = async (invocation: ReturnType<typeof ownInvocation>) => {
      const home = mkdtempSync(join(tmpdir(), 'council-invocation-demo-'));
      const c = captureIo();
      const code = await runCli(['demo', '--home', home], {
        version: '1.0.0',
        io: c.io,
        env: {},
        cwd: home,
        invocation: () => invocation,
      });
      return { code, out: c.out(), home };
    };
    const off = await run({
      command: 'node /opt/council/apps/cli/dist/council.js',
      onPath: false,
      packageDir: '/opt/council/apps/cli',
    });
    expect(off.code).toBe(0);
    expect(off.out).toContain(
      `Explore further: node /opt/council/apps/cli/dist/council.js bias-report --home ${off.home} --verbose\n`,
    );
    expect(off.out).toContain(
      `                 node /opt/council/apps/cli/dist/council.js history list --home ${off.home}\n`,
    );
    expect(off.out).toContain(
      'Put council on your PATH (once; it links to this build): npm install --global /opt/council/apps/cli\n',
    );
    const on = await run({ command: 'council', onPath: true, packageDir: '/opt/council/apps/cli' });
    expect(on.out).toContain(`Explore further: council bias-report --home ${on.home} --verbose\n`);
    expect(on.out).not.toContain('Put council on your PATH');
  }, 60_000);
});
