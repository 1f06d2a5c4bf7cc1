import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-TELEMETRY-KEY-CANARY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

async function cli(argv: string[], env: Record<string, string>, telemetryUpload?: (argv: readonly string[]) => Promise<number>) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: tmpdir(), ...(telemetryUpload ? { telemetryUpload } : {}) });
  return { code, out: c.out(), err: c.err() };
}

async function homeWithOneEvent(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'council-telemetry-'));
  // A session at consent 3 (against the OpenRouter test server on 127.0.0.1) queues an event with
  // rankings, bias indicators and query metadata.
  const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3', OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY };
  const r = await cli(['ask', 'TELEMETRY-CANARY: which sort is stable?', '--models', MEMBERS.join(',')], env);
  expect(r.code).toBe(0);
  return home;
}

describe('council telemetry', () => {
  it('never queues an event for a session with simulated members: their rankings are not real', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-sim-'));
    const r = await cli(['ask', 'which sort is stable?', '--models', 'simulated:ada,simulated:basil,simulated:cleo'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3' });
    expect(r.code).toBe(0);
    expect(existsSync(join(home, 'telemetry', 'outbox.jsonl'))).toBe(false);
    expect(r.err).toContain('no telemetry event: the session had simulated members');
    const status = await cli(['telemetry', 'status', '--json'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3' });
    expect(JSON.parse(status.out)).toMatchObject({ pendingEvents: 0 });
  });

  it('preview prints the exact body the next upload sends, reduced to the current consent level', async () => {
    const home = await homeWithOneEvent();
    const at3 = await cli(['telemetry', 'preview'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3' });
    const body3 = JSON.parse(at3.out) as { events: Record<string, unknown>[] };
    expect(body3.events).toHaveLength(1);
    expect(Object.keys(body3.events[0]!).sort()).toEqual(['bias_indicators', 'consent_level', 'event_id', 'query_metadata', 'rankings', 'schema_version', 'session_id', 'timestamp']);
    // Lowering consent to 2 after the event was queued: only the rankings leave, as the uploader does.
    const at2 = await cli(['telemetry', 'preview'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '2' });
    const event2 = (JSON.parse(at2.out) as { events: Record<string, unknown>[] }).events[0]!;
    expect(Object.keys(event2).sort()).toEqual(['consent_level', 'event_id', 'rankings', 'schema_version', 'session_id', 'timestamp']);
    expect(event2['consent_level']).toBe(2);
    const at1 = await cli(['telemetry', 'preview'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '1' });
    expect(JSON.parse(at1.out)).toEqual({ events: [] });
    expect(at1.err).toMatch(/consent level 1 sends nothing/);
    for (const r of [at3, at2, at1]) expect(r.out).not.toContain('TELEMETRY-CANARY');
  }, 20_000);

  it('status counts pending events and shows what the level sends, never the token', async () => {
    const home = await homeWithOneEvent();
    const r = await cli(['telemetry', 'status', '--json'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '3', LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY' });
    expect(JSON.parse(r.out)).toMatchObject({ consentLevel: 3, sends: true, pendingEvents: 1, cloudUrl: null, cloudToken: 'present' });
    expect(r.out).not.toContain('TOKEN-CANARY');
  }, 20_000);

  it('status shows the cloud URL without its user-info', async () => {
    const home = await homeWithOneEvent();
    const r = await cli(['telemetry', 'status', '--json'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: 'https://acme:URL-TOKEN-CANARY@cloud.example.com/ingest' });
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
    expect(missing.err).toBe('council: telemetry upload is not available in this build: run the council-telemetry executable (apps/telemetry-uploader) instead.\n');
  });

  it('rejects an unknown action with exit 2', async () => {
    const r = await cli(['telemetry', 'send'], {});
    expect(r.code).toBe(2);
    expect(r.err).toBe('council: Unknown telemetry action "send": use status, preview or upload.\n');
  });
});
