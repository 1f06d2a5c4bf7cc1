import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appendOutboxEvents, sampleEvent, startIngestTestServer, tempHome } from '@council/cli/test';

const bundle = fileURLToPath(new URL('../dist/council-telemetry.js', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('council-telemetry', () => {
  it('prints its version', () => {
    expect(execFileSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' })).toBe(
      `${packageJson.version}\n`,
    );
  }, 60_000);

  it('exits 2 with a hint on an unknown command', () => {
    const result = spawnSync(process.execPath, [bundle, 'nope'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Run "council-telemetry --help"');
  }, 60_000);

  it('retry-dead queues the events council-cloud refused again (the same command as council telemetry retry-dead)', () => {
    const { home, paths } = tempHome();
    const event = sampleEvent(1);
    const letter = {
      dead_lettered_at: '2026-11-20T10:00:00.000Z',
      refused_by: 'council-cloud',
      reason: 'HTTP 400',
      event_id: event.event_id,
      outbox_segment: 1,
      outbox_line: 1,
      event,
    };
    mkdirSync(dirname(paths.deadLetter), { recursive: true });
    writeFileSync(paths.deadLetter, `${JSON.stringify(letter)}\n`);
    const env = { PATH: process.env.PATH ?? '', LLM_COUNCIL_HOME: home };
    const dry = spawnSync(process.execPath, [bundle, 'retry-dead', '--dry-run'], { encoding: 'utf8', env });
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry run: 1 dead-lettered event would be queued again');
    const real = spawnSync(process.execPath, [bundle, 'retry-dead'], { encoding: 'utf8', env });
    expect(real.status, real.stderr).toBe(0);
    expect(real.stdout).toContain('Queued again: 1 event');
    expect(JSON.parse(readFileSync(paths.outbox, 'utf8'))).toEqual(event);
  }, 60_000);

  it('--watch keeps uploading until SIGTERM, then exits 0', async () => {
    const { home, paths } = tempHome();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const server = await startIngestTestServer();
    try {
      const child = spawn(process.execPath, [bundle, 'upload', '--watch', '--interval', '50ms'], {
        env: {
          PATH: process.env.PATH ?? '',
          LLM_COUNCIL_HOME: home,
          LLM_COUNCIL_CLOUD_URL: server.url,
          LLM_COUNCIL_CLOUD_TOKEN: 'token',
        },
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
