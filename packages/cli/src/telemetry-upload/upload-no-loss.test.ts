import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { createIngestClient } from './ingest-client.js';
import type { TelemetryCliOptions } from './run-telemetry-cli.js';
import { runTelemetryCli } from './run-telemetry-cli.js';
import type { IngestAnswer, IngestTestServer, ReceivedRequest } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { appendOutboxEvents, appendOutboxLines, noSleep, sampleEvent } from './testing/sample-events.js';
import { tempHome } from './testing/temp-home.js';

// Issue 27, item 6: telemetry without loss or double counting. Every scenario runs the command line
// (`runTelemetryCli`, what `council-telemetry` and `council telemetry upload` run) against an ingest
// server on 127.0.0.1.

const token = 'tok-NO-LOSS-9e2b';
let server: IngestTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const idOf = (i: number) => sampleEvent(i).event_id as string;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

function lines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function setup(answer: (request: ReceivedRequest, index: number) => IngestAnswer = () => ({ kind: 'ok' })) {
  const { home, paths } = tempHome();
  server = await startIngestTestServer({ token, answer });
  const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: server.url, LLM_COUNCIL_CLOUD_TOKEN: token };
  const run = async (argv: string[], extra: Partial<TelemetryCliOptions> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) };
    const code = await runTelemetryCli(argv, {
      version: packageJson.version,
      io,
      env,
      sleep: noSleep,
      timeoutMs: 5000,
      ...extra,
    });
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
  return { home, paths, env, run, server };
}

// What nginx sends for a 400 of its own (a header too large, a bad request line…), byte for byte apart from the version.
const nginx400 =
  '<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';

describe('a 4xx that is not council-cloud refusing events by name', () => {
  it('a proxy’s HTML 400 page: nothing dead-lettered, every event still pending, exit 1 with a clear message; sent once the proxy is fixed', async () => {
    let proxyBroken = true;
    const { paths, run, server } = await setup(() =>
      proxyBroken ? { kind: 'raw', status: 400, contentType: 'text/html', body: nginx400 } : { kind: 'ok' },
    );
    appendOutboxEvents(
      paths.outbox,
      range(1, 8).map((i) => sampleEvent(i)),
    );
    const result = await run(['upload'], { maxAttempts: 3 });
    expect(result.code).toBe(1);
    expect(existsSync(paths.deadLetter)).toBe(false);
    expect(existsSync(paths.cursor)).toBe(false);
    expect(result.stdout).toContain('Remaining in the outbox: 8.');
    // retried as a whole, like a 5xx (three attempts), never split into smaller batches
    expect(server.requests.map((r) => r.eventIds.length)).toEqual([8, 8, 8]);
    expect(result.stderr).toContain('HTTP 400');
    expect(result.stderr).toContain('not council-cloud');
    expect(result.stderr).toContain('nothing was dead-lettered');
    expect(result.stderr).toContain('(3 attempts)');
    expect(result.stderr + result.stdout).not.toContain('<html>');
    proxyBroken = false;
    const again = await run(['upload']);
    expect(again.code).toBe(0);
    expect(server.committed).toEqual(range(1, 8).map(idOf));
  });

  it.each([
    [
      'a JSON 400 that names no event',
      {
        kind: 'status',
        status: 400,
        body: { error: { code: 'bad_request', message: 'request body too deeply nested' } },
      },
    ],
    [
      'a 422 naming only events not in the batch',
      {
        kind: 'refuse',
        status: 422,
        rejected: [{ event_id: 'ffffffff-0000-4000-8000-000000000000', reason: 'unknown' }],
      },
    ],
    ['a 409 in plain text', { kind: 'raw', status: 409, contentType: 'text/plain', body: 'conflict' }],
    [
      'a 413 from a proxy for a single event',
      {
        kind: 'raw',
        status: 413,
        contentType: 'text/html',
        body: '<html><body>413 Request Entity Too Large</body></html>',
      },
    ],
  ] as [string, IngestAnswer][])(
    '%s: retried, nothing dead-lettered, the events stay queued (exit 1)',
    async (_what, answer) => {
      const { paths, run, server } = await setup(() => answer);
      appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
      const result = await run(['upload'], { maxAttempts: 2 });
      expect(result.code).toBe(1);
      expect(server.requests).toHaveLength(2); // retried like a 5xx
      expect(existsSync(paths.deadLetter)).toBe(false);
      expect(existsSync(paths.cursor)).toBe(false);
      expect(result.stdout).toContain('Remaining in the outbox: 1.');
    },
  );

  it('council-cloud refusing 2 events by id: exactly those are dead-lettered with its reasons, the other 6 stored once', async () => {
    const refusals = new Map([
      [idOf(3), 'rankings[1].final_rank repeats rank 1'],
      [idOf(6), 'model "acme/unknown" is not known'],
    ]);
    const { paths, run, server } = await setup((request) => {
      const named = request.eventIds
        .filter((id) => refusals.has(id))
        .map((id) => ({ event_id: id, reason: refusals.get(id)! }));
      return named.length > 0 ? { kind: 'refuse', status: 422, rejected: named } : { kind: 'ok' };
    });
    appendOutboxEvents(
      paths.outbox,
      range(1, 8).map((i) => sampleEvent(i)),
    );
    const result = await run(['upload']);
    expect(result.code).toBe(0);
    const letters = lines(paths.deadLetter);
    expect(letters.map((l) => [l.event_id, l.refused_by, l.reason, l.outbox_line])).toEqual([
      [idOf(3), 'council-cloud', 'rankings[1].final_rank repeats rank 1', 3],
      [idOf(6), 'council-cloud', 'model "acme/unknown" is not known', 6],
    ]);
    expect(server.committed).toEqual([1, 2, 4, 5, 7, 8].map(idOf));
    // the refusal, then the same batch without the two refused events: no splitting
    expect(server.requests.map((r) => r.eventIds.length)).toEqual([8, 6]);
    expect(result.stdout).toContain('Rejected by council-cloud: 2');
  });
});

describe('idempotency per event', () => {
  it('a batch committed but not acknowledged, sent again with another --batch-size, is stored once', async () => {
    // The connection is reset after the first batch of 10 is committed; council-cloud then fails (503)
    // until the first run gives up. The second run sends all 48 in one batch.
    let phase = 1;
    const { paths, run, server } = await setup((_request, index) =>
      phase === 2 ? { kind: 'ok' } : index === 0 ? { kind: 'commit-then-fail' } : { kind: 'status', status: 503 },
    );
    appendOutboxEvents(
      paths.outbox,
      range(1, 48).map((i) => sampleEvent(i)),
    );
    const first = await run(['upload', '--batch-size', '10'], { maxAttempts: 2 });
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('Remaining in the outbox: 48.');
    expect(server.committed).toHaveLength(10);
    phase = 2;
    const second = await run(['upload', '--batch-size', '48']);
    expect(second.code).toBe(0);
    // every event counted once at the server: 48 stored, 10 of them recognised when they came again
    expect(server.committed).toHaveLength(48);
    expect(new Set(server.committed).size).toBe(48);
    expect([...server.committed].sort()).toEqual(range(1, 48).map(idOf).sort());
    expect([...server.duplicates].sort()).toEqual(range(1, 10).map(idOf).sort());
    expect(second.stdout).toContain('Sent 48 events in 1 batch');
    expect(second.stdout).toContain('10 of them council-cloud already had');
  });
});

describe('council-telemetry retry-dead', () => {
  /** Dead letters as the uploader before issue 27 wrote them for a proxy's HTML 400 (every event of the batch). */
  function proxyDeadLetters(ids: number[]): string[] {
    return ids.map((i) =>
      JSON.stringify({
        dead_lettered_at: '2026-11-20T10:00:00.000Z',
        refused_by: 'council-cloud',
        reason: 'HTTP 400',
        event_id: idOf(i),
        outbox_segment: 0,
        outbox_line: i,
        event: sampleEvent(i),
      }),
    );
  }
  /** An event set aside by the uploader itself (consent 1): it has nothing to send. */
  const setAside = JSON.stringify({
    dead_lettered_at: '2026-11-20T10:00:00.000Z',
    refused_by: 'uploader',
    reason: 'consent_level 1 allows no transmission (only levels 2 to 4 are sent)',
    event_id: idOf(9),
    outbox_segment: 0,
    outbox_line: 6,
    event: null,
  });

  async function homeWithDeadLetters() {
    const context = await setup();
    const { paths } = context;
    // The outbox was handled to its end: its events were (wrongly) dead-lettered, its cursor moved past them.
    appendOutboxEvents(
      paths.outbox,
      range(1, 5).map((i) => sampleEvent(i)),
    );
    appendOutboxLines(paths.outbox, [
      JSON.stringify({ schema_version: '1.1.0', event_id: idOf(9), session_id: 's9', consent_level: 1 }),
    ]);
    // The active file of a store with no closed segment is segment 1.
    writeFileSync(paths.cursor, `${JSON.stringify({ segment: 1, offset: statSync(paths.outbox).size, line: 6 })}\n`);
    appendOutboxLines(paths.deadLetter, [...proxyDeadLetters(range(1, 5)), setAside]);
    return context;
  }

  it('--dry-run says what it would queue again and changes nothing', async () => {
    const { paths, run, server } = await homeWithDeadLetters();
    const outboxBefore = readFileSync(paths.outbox, 'utf8');
    const lettersBefore = readFileSync(paths.deadLetter, 'utf8');
    const result = await run(['retry-dead', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Dry run: 5 dead-lettered events would be queued again');
    expect(result.stdout).toContain('Not retried: 1');
    expect(readFileSync(paths.outbox, 'utf8')).toBe(outboxBefore);
    expect(readFileSync(paths.deadLetter, 'utf8')).toBe(lettersBefore);
    expect(existsSync(paths.deadLetter.replace(/\.jsonl$/, '.cursor'))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('queues the events council-cloud refused again, once; the next upload sends each once, even one council-cloud already had', async () => {
    const { paths, run, server } = await homeWithDeadLetters();
    // Event 2 had reached council-cloud before its batch was (wrongly) dead-lettered.
    const client = createIngestClient({ baseUrl: server.url, token, userAgent: 'test' });
    expect(await client.send([sampleEvent(2) as { event_id: string }])).toMatchObject({ kind: 'accepted' });
    const lettersBefore = readFileSync(paths.deadLetter, 'utf8');

    const retried = await run(['retry-dead']);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('Queued again: 5 events');
    expect(retried.stdout).toContain('Not retried: 1');
    // the dead-letter file is never rewritten; the outbox only grows, by the five events as they were
    expect(readFileSync(paths.deadLetter, 'utf8')).toBe(lettersBefore);
    expect(lines(paths.outbox).slice(6)).toEqual(range(1, 5).map((i) => sampleEvent(i)));

    // a second retry-dead finds nothing new to queue
    const twice = await run(['retry-dead']);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain('No dead letters since the last retry-dead');
    expect(lines(paths.outbox)).toHaveLength(11);

    const upload = await run(['upload']);
    expect(upload.code).toBe(0);
    expect(server.committed).toEqual([2, 1, 3, 4, 5].map(idOf));
    expect(server.duplicates).toEqual([idOf(2)]);
    expect(upload.stdout).toContain('Remaining in the outbox: 0.');
  });

  it('after a crash between queueing the events and moving its cursor, a second run does not queue them twice', async () => {
    const { paths, run, server } = await homeWithDeadLetters();
    // What a retry-dead killed after its append and before its cursor write leaves behind.
    appendOutboxEvents(
      paths.outbox,
      range(1, 5).map((i) => sampleEvent(i)),
    );
    const result = await run(['retry-dead']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Queued again: 0 events');
    expect(result.stdout).toContain('already queued: 5');
    expect(lines(paths.outbox)).toHaveLength(11);
    expect((await run(['upload'])).code).toBe(0);
    expect(server.committed).toEqual(range(1, 5).map(idOf));
  });
});
