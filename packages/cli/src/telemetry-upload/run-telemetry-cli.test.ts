import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import type { TelemetryCliOptions } from './run-telemetry-cli.js';
import { runTelemetryCli } from './run-telemetry-cli.js';
import type { IngestAnswer, IngestTestServer } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { closedPort } from './testing/closed-port.js';
import { appendOutboxEvents, noSleep, sampleEvent } from './testing/sample-events.js';
import { tempHome } from './testing/temp-home.js';

const token = 'tok-SECRET-5d1c';
// The version the executable injects; @council/cli's own stands in for it here.
const version = packageJson.version;
let server: IngestTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

async function setup(answer?: (index: number) => IngestAnswer) {
  const { home, paths } = tempHome();
  server = await startIngestTestServer({ token, ...(answer === undefined ? {} : { answer: (_r, i) => answer(i) }) });
  const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: server.url, LLM_COUNCIL_CLOUD_TOKEN: token };
  const run = async (
    argv: string[],
    extra: Partial<TelemetryCliOptions> & { env?: Record<string, string | undefined> } = {},
  ) => {
    const c = capture();
    const code = await runTelemetryCli(argv, { version, io: c.io, env, sleep: noSleep, timeoutMs: 5000, ...extra });
    return { code, stdout: c.out(), stderr: c.err() };
  };
  return { home, paths, env, run, server };
}

describe('runTelemetryCli', () => {
  it('prints the version and the help', async () => {
    const c = capture();
    expect(await runTelemetryCli(['--version'], { version, io: c.io, env: {} })).toBe(0);
    expect(c.out()).toBe(`${packageJson.version}\n`);
    const h = capture();
    expect(await runTelemetryCli(['--help'], { version, io: h.io, env: {} })).toBe(0);
    expect(h.out()).toContain(
      'council-telemetry upload [--dry-run] [--batch-size N] [--max-events N] [--watch --interval 60s]',
    );
    expect(h.out()).toContain('council-telemetry retry-dead [--dry-run]');
    for (const name of [
      'LLM_COUNCIL_CLOUD_URL',
      'LLM_COUNCIL_CLOUD_TOKEN',
      'LLM_COUNCIL_HOME',
      'LLM_COUNCIL_BIAS_CONSENT',
    ])
      expect(h.out()).toContain(name);
  });

  it('usage errors exit 2 with one line saying what was wrong and where to look', async () => {
    const cases: [string[], string][] = [
      [['nope'], 'Unknown command "nope"'],
      [['upload', '--batch-size', '0'], '--batch-size "0" is not a whole number from 1 to 100'],
      [['upload', '--batch-size', '101'], 'from 1 to 100'],
      [['upload', '--max-events', 'many'], '--max-events "many"'],
      [['upload', '--interval', '5s'], '--interval only applies with --watch'],
      [['upload', '--watch', '--interval', 'soon'], '--interval "soon" is not an interval'],
      [['upload', '--frobnicate'], "Unknown option '--frobnicate'"],
      [['upload', 'extra'], 'upload takes no arguments'],
      [['retry-dead', 'all'], 'retry-dead takes no arguments'],
      [['retry-dead', '--batch-size', '5'], '--batch-size is an option of upload; retry-dead takes only --dry-run'],
    ];
    for (const [argv, message] of cases) {
      const c = capture();
      expect(await runTelemetryCli(argv, { version, io: c.io, env: {} }), argv.join(' ')).toBe(2);
      expect(c.err()).toContain(message);
      expect(c.err()).toContain('council-telemetry --help');
      expect(c.err().trim().split('\n')).toHaveLength(1);
      expect(c.err()).not.toMatch(/\n\s+at /);
    }
  });

  it('a missing cloud URL or token is a clear configuration error (exit 2), nothing sent', async () => {
    const { home, paths } = tempHome();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const c = capture();
    expect(await runTelemetryCli(['upload'], { version, io: c.io, env: { LLM_COUNCIL_HOME: home } })).toBe(2);
    expect(c.err()).toContain('LLM_COUNCIL_CLOUD_URL and LLM_COUNCIL_CLOUD_TOKEN are not set');
    expect(c.err()).toContain('--dry-run');
    const t = capture();
    expect(
      await runTelemetryCli(['upload'], {
        version,
        io: t.io,
        env: { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: 'https://cloud.example.com' },
      }),
    ).toBe(2);
    expect(t.err()).toContain('LLM_COUNCIL_CLOUD_TOKEN is not set');
    expect(existsSync(paths.cursor)).toBe(false);
  });

  it('refuses a non-https cloud URL off localhost so the token never travels in the clear', async () => {
    const c = capture();
    const env = {
      LLM_COUNCIL_HOME: tempHome().home,
      LLM_COUNCIL_CLOUD_URL: 'http://cloud.example.com',
      LLM_COUNCIL_CLOUD_TOKEN: token,
    };
    expect(await runTelemetryCli(['upload'], { version, io: c.io, env })).toBe(2);
    expect(c.err()).toContain('must use https');
    expect(c.err()).not.toContain(token);
    const bad = capture();
    expect(
      await runTelemetryCli(['upload'], { version, io: bad.io, env: { ...env, LLM_COUNCIL_CLOUD_URL: 'not a url' } }),
    ).toBe(2);
    expect(bad.err()).toContain('LLM_COUNCIL_CLOUD_URL is not a URL');
  });

  it('a token that cannot go in a header is a configuration error that does not show it, before any request', async () => {
    for (const bad of ['SECRETTOK with space', 'SECRETTOK\u0001x', 'SECRETTÖK']) {
      const c = capture();
      const env = {
        LLM_COUNCIL_HOME: tempHome().home,
        LLM_COUNCIL_CLOUD_URL: 'https://cloud.example.com',
        LLM_COUNCIL_CLOUD_TOKEN: bad,
      };
      expect(await runTelemetryCli(['upload'], { version, io: c.io, env })).toBe(2);
      expect(c.err()).toContain('LLM_COUNCIL_CLOUD_TOKEN holds a character a bearer token cannot have');
      expect(c.err()).not.toContain('SECRET');
    }
  });

  it('an invalid LLM_COUNCIL_BIAS_CONSENT names the variable and the accepted values', async () => {
    const c = capture();
    expect(await runTelemetryCli(['upload'], { version, io: c.io, env: { LLM_COUNCIL_BIAS_CONSENT: 'lots' } })).toBe(2);
    expect(c.err()).toContain('LLM_COUNCIL_BIAS_CONSENT');
    expect(c.err()).toContain('4 (RESEARCH)');
  });

  it('uploads and prints the summary: sent, rejected, remaining, next retry', async () => {
    const { paths, run, server } = await setup(() => ({
      kind: 'ok',
      rejected: [{ event_id: sampleEvent(2).event_id as string, reason: 'no' }],
    }));
    appendOutboxEvents(
      paths.outbox,
      [1, 2, 3].map((i) => sampleEvent(i)),
    );
    const result = await run(['upload', '--batch-size', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Sent 2 events in 2 batches.');
    expect(result.stdout).toContain(`Rejected by council-cloud: 1 (reasons in ${paths.deadLetter}).`);
    expect(result.stdout).toContain('Remaining in the outbox: 0.');
    expect(result.stdout).toContain('Next retry: none needed.');
    expect(server.requests[0]!.headers['user-agent']).toBe(
      `council-telemetry/${packageJson.version} (node/${process.versions.node}; ${process.platform})`,
    );
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it('--dry-run prints the batches and sends nothing, without needing the cloud settings', async () => {
    const { home, paths, server } = await setup();
    appendOutboxEvents(
      paths.outbox,
      [1, 2, 3].map((i) => sampleEvent(i, 3)),
    );
    const c = capture();
    expect(
      await runTelemetryCli(['upload', '--dry-run', '--batch-size', '2'], {
        version,
        io: c.io,
        env: { LLM_COUNCIL_HOME: home },
      }),
    ).toBe(0);
    const out = c.out();
    expect(out).toContain('# batch 1: 2 events (POST /v1/events)');
    expect(out).toContain('# batch 2: 1 event (POST /v1/events)');
    expect(out).toContain(JSON.stringify({ events: [sampleEvent(3, 3)] }, null, 2));
    expect(out).toContain('Dry run: 3 events in 2 batches would be sent; nothing was sent.');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(paths.cursor)).toBe(false);
  });

  it('consent set below 2 now sends nothing and says so', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    for (const consent of ['0', '1', 'local_only']) {
      const result = await run(['upload'], {
        env: {
          LLM_COUNCIL_HOME: tempHomeOf(paths.outbox),
          LLM_COUNCIL_CLOUD_URL: server.url,
          LLM_COUNCIL_CLOUD_TOKEN: token,
          LLM_COUNCIL_BIAS_CONSENT: consent,
        },
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Telemetry is off');
    }
    expect(server.requests).toHaveLength(0);
    const dry = capture();
    expect(
      await runTelemetryCli(['upload', '--dry-run'], {
        version,
        io: dry.io,
        env: { LLM_COUNCIL_HOME: tempHomeOf(paths.outbox), LLM_COUNCIL_BIAS_CONSENT: '1' },
      }),
    ).toBe(0);
    expect(dry.out()).toContain('Telemetry is off');
    expect(dry.out()).not.toContain('# batch');
  });

  // Bounded work, counted rather than timed: the attempts the client makes and the waits between them, each asked
  // of the injected sleep (so none is spent for real); a never-answering host is cut off by the client's own timer,
  // the only source of 'no answer within 300 ms (timeout)'. Real connections and timers: hence the timeout.
  it(
    'an unreachable host fails within bounded time with a clear error and the next retry (refused and never-answering)',
    { timeout: 20_000 },
    async () => {
      const { home, paths } = tempHome();
      appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
      const refusedUrl = `http://127.0.0.1:${await closedPort()}`;
      const c = capture();
      const waits: number[] = [];
      const recordSleep = (ms: number): Promise<void> => {
        waits.push(ms);
        return Promise.resolve();
      };
      const code = await runTelemetryCli(['upload'], {
        version,
        io: c.io,
        env: { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: refusedUrl, LLM_COUNCIL_CLOUD_TOKEN: token },
        sleep: recordSleep,
        timeoutMs: 300,
      });
      expect(code).toBe(1);
      // 5 refused attempts, and the 4 waits between them all through the injected sleep
      expect(waits).toHaveLength(4);
      expect(c.err()).toContain(`council-cloud at ${refusedUrl}/v1/events did not take the batch: connection refused`);
      expect(c.err()).toContain('(5 attempts)');
      expect(c.out()).toContain('Remaining in the outbox: 1.');
      expect(c.out()).toMatch(/Next retry: \d{4}-\d\d-\d\dT/);
      expect(c.err() + c.out()).not.toContain(token);

      const { run, paths: hangPaths, server: hangServer } = await setup(() => ({ kind: 'hang' }));
      appendOutboxEvents(hangPaths.outbox, [sampleEvent(1)]);
      waits.length = 0;
      const hung = await run(['upload'], { maxAttempts: 3, timeoutMs: 300, sleep: recordSleep });
      expect(hung.code).toBe(1);
      // 3 attempts, each ended by the client's 300 ms timer, and the 2 waits between them through the injected sleep
      expect(hangServer.requests).toHaveLength(3);
      expect(waits).toHaveLength(2);
      expect(hung.stderr).toContain('no answer within 300 ms (timeout) (3 attempts)');
    },
  );

  it('401 exits 1 with a message about the token and without it', async () => {
    const { paths, run } = await setup(() => ({
      kind: 'status',
      status: 401,
      body: { error: { message: 'invalid token' } },
    }));
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const result = await run(['upload']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('council-cloud refused the credentials (HTTP 401: invalid token)');
    expect(result.stderr).toContain('Check LLM_COUNCIL_CLOUD_TOKEN');
    expect(result.stderr + result.stdout).not.toContain(token);
  });

  it('a second uploader waits its turn: exit 1 while the lock is held', async () => {
    const { home, paths, run } = await setup();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const { acquireUploadLock } = await import('./upload-lock.js');
    const lock = await acquireUploadLock({ path: join(home, 'telemetry', 'upload.lock') });
    const blocked = await run(['upload']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('holds');
    await lock.release();
    expect((await run(['upload'])).code).toBe(0);
    expect(readFileSync(paths.cursor, 'utf8')).toContain('"line":1');
  });

  it('--watch uploads, waits the interval, uploads again, and stops on the signal', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const controller = new AbortController();
    const waits: number[] = [];
    const result = await run(['upload', '--watch', '--interval', '2m'], {
      signal: controller.signal,
      sleep: (ms) => {
        waits.push(ms);
        if (waits.length === 1) appendOutboxEvents(paths.outbox, [sampleEvent(2)]);
        else controller.abort();
        return Promise.resolve();
      },
    });
    expect(result.code).toBe(0);
    expect(waits).toEqual([120_000, 120_000]);
    expect(server.committed).toEqual([sampleEvent(1).event_id, sampleEvent(2).event_id]);
    expect(result.stdout.match(/Sent 1 event in 1 batch\./g)).toHaveLength(2);
  });
});

function tempHomeOf(outbox: string): string {
  return join(outbox, '..', '..');
}
