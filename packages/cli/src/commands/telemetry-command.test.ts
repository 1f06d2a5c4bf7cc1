import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { createTelemetryOutboxStore } from '@council/bias-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { runTelemetryCli } from '../telemetry-upload/run-telemetry-cli.js';
import { appendOutboxEvents, appendOutboxLines, sampleEvent } from '../telemetry-upload/testing/sample-events.js';

const KEY = 'sk-or-v1-TELEMETRY-KEY-CANARY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

async function cli(
  argv: string[],
  env: Record<string, string>,
  telemetryUpload?: (argv: readonly string[]) => Promise<number>,
) {
  const c = captureIo();
  const code = await runCli(argv, {
    version: '1.0.0',
    io: c.io,
    env,
    cwd: tmpdir(),
    ...(telemetryUpload ? { telemetryUpload } : {}),
  });
  return { code, out: c.out(), err: c.err() };
}

async function homeWithOneEvent(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'council-telemetry-'));
  // A session at consent 3 (against the OpenRouter test server on 127.0.0.1) queues an event with
  // rankings, bias indicators and query metadata.
  const env = {
    LLM_COUNCIL_HOME: home,
    LLM_COUNCIL_BIAS_CONSENT: '3',
    OPENROUTER_BASE_URL: server.url,
    OPENROUTER_API_KEY: KEY,
  };
  const r = await cli(['ask', 'TELEMETRY-CANARY: which sort is stable?', '--models', MEMBERS.join(',')], env);
  expect(r.code).toBe(0);
  return home;
}

describe('council telemetry', () => {
  it('never queues an event for a session with simulated members: their rankings are not real', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-sim-'));
    const r = await cli(['ask', 'which sort is stable?', '--models', 'simulated:ada,simulated:basil,simulated:cleo'], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_BIAS_CONSENT: '3',
    });
    expect(r.code).toBe(0);
    expect(existsSync(join(home, 'telemetry', 'outbox.jsonl'))).toBe(false);
    expect(r.err).toContain('no telemetry event: the session had simulated members');
    const status = await cli(['telemetry', 'status', '--json'], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_BIAS_CONSENT: '3',
    });
    expect(JSON.parse(status.out)).toMatchObject({ pendingEvents: 0 });
  });

  it('preview prints the exact body the next upload sends, reduced to the current consent level', async () => {
    const home = await homeWithOneEvent();
    const at3 = await cli(['telemetry', 'preview'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3' });
    const body3 = JSON.parse(at3.out) as { events: Record<string, unknown>[] };
    expect(body3.events).toHaveLength(1);
    expect(Object.keys(body3.events[0]!).sort()).toEqual([
      'bias_indicators',
      'consent_level',
      'event_id',
      'query_metadata',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    // Lowering consent to 2 after the event was queued: only the rankings leave, as the uploader does.
    const at2 = await cli(['telemetry', 'preview'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '2' });
    const event2 = (JSON.parse(at2.out) as { events: Record<string, unknown>[] }).events[0]!;
    expect(Object.keys(event2).sort()).toEqual([
      'consent_level',
      'event_id',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    expect(event2['consent_level']).toBe(2);
    const at1 = await cli(['telemetry', 'preview'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '1' });
    expect(JSON.parse(at1.out)).toEqual({ events: [] });
    expect(at1.err).toMatch(/consent level 1 sends nothing/);
    for (const r of [at3, at2, at1]) expect(r.out).not.toContain('TELEMETRY-CANARY');
  }, 20_000);

  it('status counts pending events and shows what the level sends, never the token', async () => {
    const home = await homeWithOneEvent();
    const r = await cli(['telemetry', 'status', '--json'], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_BIAS_CONSENT: '3',
      LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY',
    });
    expect(JSON.parse(r.out)).toMatchObject({
      consentLevel: 3,
      sends: true,
      pendingEvents: 1,
      cloudUrl: null,
      cloudToken: 'present',
    });
    expect(r.out).not.toContain('TOKEN-CANARY');
  }, 20_000);

  it('status counts the events of a rotated outbox, whose active file is gone', async () => {
    const home = await homeWithOneEvent();
    const outbox = join(home, 'telemetry', 'outbox.jsonl');
    await createTelemetryOutboxStore(outbox, z.looseObject({})).rotate();
    expect(existsSync(outbox)).toBe(false);
    const r = await cli(['telemetry', 'status', '--json'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3' });
    expect(JSON.parse(r.out)).toMatchObject({ pendingEvents: 1 });
  }, 20_000);

  it('status shows the cloud URL without its user-info', async () => {
    const home = await homeWithOneEvent();
    const r = await cli(['telemetry', 'status', '--json'], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_CLOUD_URL: 'https://acme:URL-TOKEN-CANARY@cloud.example.com/ingest',
    });
    expect(JSON.parse(r.out)).toMatchObject({ cloudUrl: 'https://cloud.example.com/ingest' });
    expect(r.out).not.toContain('URL-TOKEN-CANARY');
  }, 20_000);

  it('upload hands the arguments after "upload" to the injected uploader, and says so when there is none', async () => {
    const seen: (readonly string[])[] = [];
    const r = await cli(['telemetry', 'upload', '--dry-run', '--batch-size', '10'], {}, (argv) => {
      seen.push(argv);
      return Promise.resolve(0);
    });
    expect(r.code).toBe(0);
    expect(seen).toEqual([['--dry-run', '--batch-size', '10']]);
    const missing = await cli(['telemetry', 'upload'], {});
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(
      'council: telemetry upload is not available in this build: run the council-telemetry executable (apps/telemetry-uploader) instead.\n',
    );
  });

  it('upload run as `council telemetry upload` speaks as council: lines start "council:", hints name its help (issue 30 item 10)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-as-'));
    const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '2' };
    // As apps/cli's executable wires it: the uploader, told how it was invoked.
    const run = async (argv: string[]) => {
      const c = captureIo();
      const code = await runCli(argv, {
        version: '1.0.0',
        io: c.io,
        env,
        cwd: home,
        telemetryUpload: (rest) =>
          runTelemetryCli(['upload', ...rest], { version: '1.0.0', io: c.io, env, invokedAs: 'council telemetry' }),
      });
      return { code, out: c.out(), err: c.err() };
    };
    const unset = await run(['telemetry', 'upload']);
    expect(unset.code).toBe(2);
    expect(unset.err).toMatch(/^council: LLM_COUNCIL_CLOUD_URL and LLM_COUNCIL_CLOUD_TOKEN are not set/);
    expect(unset.err).not.toContain('council-telemetry');
    const bad = await run(['telemetry', 'upload', '--batch-size', '0']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'council: --batch-size "0" is not a whole number from 1 to 100. Run "council telemetry --help" to see the commands and their options.\n',
    );
    // …and that help lists upload's own options.
    const help = await run(['telemetry', '--help']);
    for (const flag of ['--batch-size <n>', '--max-events <n>', '--watch', '--interval <duration>', '--dry-run'])
      expect(help.out).toContain(flag);
  });

  it('rejects an unknown action with exit 2', async () => {
    const r = await cli(['telemetry', 'send'], {});
    expect(r.code).toBe(2);
    expect(r.err).toBe('council: Unknown telemetry action "send": use status, preview, upload or retry-dead.\n');
  });

  it('retry-dead queues the events council-cloud refused again, once; status points at it; --dry-run and consent 1 change nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-dead-'));
    const outbox = join(home, 'telemetry', 'outbox.jsonl');
    const deadLetter = join(home, 'telemetry', 'dead-letter.jsonl');
    // Two events a proxy's 400 got dead-lettered before issue 27, and one the uploader set aside (consent 1).
    const letter = (i: number) =>
      JSON.stringify({
        dead_lettered_at: '2026-11-20T10:00:00.000Z',
        refused_by: 'council-cloud',
        reason: 'HTTP 400',
        event_id: sampleEvent(i).event_id,
        outbox_segment: 1,
        outbox_line: i,
        event: sampleEvent(i),
      });
    appendOutboxLines(deadLetter, [
      letter(1),
      letter(2),
      JSON.stringify({
        dead_lettered_at: '2026-11-20T10:00:00.000Z',
        refused_by: 'uploader',
        reason: 'consent_level 1',
        event_id: null,
        outbox_segment: 1,
        outbox_line: 3,
        event: null,
      }),
    ]);
    const letters = readFileSync(deadLetter, 'utf8');
    const env = { LLM_COUNCIL_HOME: home };

    const status = await cli(['telemetry', 'status'], env);
    expect(status.out).toContain(
      'dead letters      2 refused by council-cloud, not yet retried: council telemetry retry-dead queues them again',
    );
    const off = await cli(['telemetry', 'retry-dead'], { ...env, LLM_COUNCIL_BIAS_CONSENT: '1' });
    expect(off.code).toBe(0);
    expect(off.out).toContain('Telemetry is off');
    const dry = await cli(['telemetry', 'retry-dead', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Dry run: 2 dead-lettered events would be queued again; nothing was changed.');
    expect(existsSync(outbox)).toBe(false);

    const r = await cli(['telemetry', 'retry-dead'], env);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Queued again: 2 events');
    expect(r.out).toContain('Send them with council telemetry upload');
    expect(r.out).toContain('Not retried: 1');
    const queued = readFileSync(outbox, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(queued).toEqual([sampleEvent(1), sampleEvent(2)]);
    expect(readFileSync(deadLetter, 'utf8')).toBe(letters);
    expect(JSON.parse((await cli(['telemetry', 'status', '--json'], env)).out)).toMatchObject({
      pendingEvents: 2,
      retryableDeadLetters: 0,
    });
    expect((await cli(['telemetry', 'retry-dead', 'all'], env)).code).toBe(2);
    const again = await cli(['telemetry', 'retry-dead'], env);
    expect(again.out).toContain('nothing to queue again');
    expect(readFileSync(outbox, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('retry-dead says what to do when its cursor no longer fits the dead-letter file, queueing nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-dead-'));
    appendOutboxEvents(join(home, 'telemetry', 'dead-letter.jsonl'), []);
    appendOutboxLines(join(home, 'telemetry', 'dead-letter.cursor'), ['{"segment":1,"offset":4096,"line":12}']);
    const r = await cli(['telemetry', 'retry-dead'], { LLM_COUNCIL_HOME: home });
    expect(r.code).toBe(1);
    expect(r.err).toContain('dead-letter.cursor points past the end of');
    expect(r.err).toContain('delete');
    expect(existsSync(join(home, 'telemetry', 'outbox.jsonl'))).toBe(false);
  });
});
