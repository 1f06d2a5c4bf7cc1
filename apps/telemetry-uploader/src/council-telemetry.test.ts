import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appendOutboxEvents, sampleEvent, startIngestTestServer, tempHome } from '@council/cli/test';

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

  it('--watch keeps uploading until SIGTERM, then exits 0', async () => {
    const { home, paths } = tempHome();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const server = await startIngestTestServer();
    try {
      const child = spawn(process.execPath, [bundle, 'upload', '--watch', '--interval', '50ms'], {
        env: { PATH: process.env.PATH ?? '', LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: server.url, LLM_COUNCIL_CLOUD_TOKEN: 'token' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          // a second summary means it waited the interval and ran again
          if ((stdout.match(/Remaining in the outbox/g) ?? []).length >= 2) resolve();
        });
      });
      appendOutboxEvents(paths.outbox, [sampleEvent(2)]);
      await new Promise<void>((resolve) => {
        const check = () => (server.committed.length >= 2 ? resolve() : setTimeout(check, 20));
        check();
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(server.committed).toEqual([sampleEvent(1).event_id, sampleEvent(2).event_id]);
    } finally {
      await server.close();
    }
  }, 20_000);
});
