import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { omitUndefined } from '../omit-undefined.js';
import { createIngestClient } from './ingest-client.js';
import type { IngestAnswer, IngestTestServer, ReceivedRequest } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { appendOutboxEvents, recordingSleep, sampleEvent } from './testing/sample-events.js';
import { tempHome } from './testing/temp-home.js';
import type { UploadOutboxOptions } from './upload-outbox.js';
import { uploadOutbox } from './upload-outbox.js';

let server: IngestTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const idOf = (i: number) => sampleEvent(i).event_id as string;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

async function setup(answer?: (request: ReceivedRequest, index: number) => IngestAnswer) {
  const { paths } = tempHome();
  server = await startIngestTestServer(omitUndefined({ answer }));
  const client = createIngestClient({ baseUrl: server.url, token: 't', userAgent: 'test', timeoutMs: 1000 });
  const sleeps: number[] = [];
  const run = (extra: Partial<UploadOutboxOptions> = {}) =>
    uploadOutbox({ paths, client, sleep: recordingSleep(sleeps), random: () => 0, ...extra });
  return { paths, client, run, sleeps, server };
}

function deadLetters(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('uploadOutbox', () => {
  it('sends everything in order in batches of batchSize and moves the cursor to the end', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(
      paths.outbox,
      range(1, 250).map((i) => sampleEvent(i)),
    );
    const summary = await run({ batchSize: 100 });
    expect(summary).toMatchObject({ sent: 250, rejected: 0, batches: 3, remaining: 0, nextRetryAt: null, error: null });
    expect(server.requests.map((r) => r.eventIds.length)).toEqual([100, 100, 50]);
    expect(server.committed).toEqual(range(1, 250).map(idOf));
    const cursor = JSON.parse(readFileSync(paths.cursor, 'utf8')) as { offset: number; line: number };
    expect(cursor.offset).toBe(statSync(paths.outbox).size);
    expect(cursor.line).toBe(250);
    // A second run finds nothing new; a new event is picked up from the cursor.
    expect(await run()).toMatchObject({ sent: 0, batches: 0, remaining: 0 });
    appendOutboxEvents(paths.outbox, [sampleEvent(251)]);
    expect(await run()).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.committed).toHaveLength(251);
  });

  it('honours maxEvents and reports the rest as remaining', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(
      paths.outbox,
      range(1, 30).map((i) => sampleEvent(i)),
    );
    expect(await run({ batchSize: 10, maxEvents: 25 })).toMatchObject({ sent: 25, batches: 3, remaining: 5 });
    expect(server.requests.map((r) => r.eventIds.length)).toEqual([10, 10, 5]);
  });

  it('dead-letters the events a 2xx rejects, with the reason, and moves on', async () => {
    const { paths, run } = await setup(() => ({
      kind: 'ok',
      rejected: [{ event_id: idOf(2), reason: 'unknown model id' }],
    }));
    appendOutboxEvents(
      paths.outbox,
      range(1, 3).map((i) => sampleEvent(i)),
    );
    expect(await run()).toMatchObject({ sent: 2, rejected: 1, remaining: 0 });
    const letters = deadLetters(paths.deadLetter);
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      refused_by: 'council-cloud',
      reason: 'unknown model id',
      event_id: idOf(2),
      outbox_line: 2,
      event: sampleEvent(2),
    });
  });

  it('retries 429/5xx/timeouts with backoff honouring Retry-After, and the cursor only moves after the 2xx', async () => {
    const answers: IngestAnswer[] = [
      { kind: 'status', status: 429, headers: { 'retry-after': '3' } },
      { kind: 'status', status: 500 },
      { kind: 'hang' },
      { kind: 'ok' },
    ];
    const { paths, run, sleeps, server } = await setup((_r, i) => answers[i] ?? { kind: 'ok' });
    appendOutboxEvents(paths.outbox, [sampleEvent(1), sampleEvent(2)]);
    const summary = await run({ onCommit: () => void expect(server.requests).toHaveLength(4) });
    expect(summary).toMatchObject({ sent: 2, batches: 1, error: null });
    // random() = 0: waits are base × 2^(n−1) / 2 → 250, 500, 1000 ms; the first is raised to Retry-After's 3 s.
    expect(sleeps).toEqual([3000, 500, 1000]);
    // every attempt carried the same events; the server stored each once
    expect(new Set(server.requests.map((r) => r.eventIds.join(','))).size).toBe(1);
    expect(server.committed).toEqual([idOf(1), idOf(2)]);
  });

  it('stops after maxAttempts with the next retry time, leaving the cursor where it was', async () => {
    const { paths, run } = await setup(() => ({ kind: 'status', status: 503 }));
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const now = Date.parse('2026-11-22T00:00:00Z');
    const summary = await run({ maxAttempts: 3, now: () => now });
    expect(summary.error?.code).toBe('UNAVAILABLE');
    expect(summary.error?.message).toContain('HTTP 503 (3 attempts)');
    // after attempt 3 the next wait would be 500 × 2² / 2 = 1000 ms
    expect(summary.nextRetryAt).toBe('2026-11-22T00:00:01.000Z');
    expect(summary).toMatchObject({ sent: 0, remaining: 1 });
    expect(existsSync(paths.cursor)).toBe(false);
  });

  it('a Retry-After longer than maxWaitMs ends the run at once with that time as the next retry', async () => {
    const { paths, run, sleeps } = await setup(() => ({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '3600' },
    }));
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const summary = await run({ now: () => Date.parse('2026-11-22T00:00:00Z') });
    expect(summary.nextRetryAt).toBe('2026-11-22T01:00:00.000Z');
    expect(sleeps).toEqual([]);
  });

  it('a 413 naming no event splits the batch in halves until it passes, dead-lettering nothing', async () => {
    // A proxy that takes at most 2 events per request; council-cloud behind it refuses event 3 by name.
    const { paths, run, server } = await setup((request) => {
      if (request.eventIds.length > 2)
        return {
          kind: 'raw',
          status: 413,
          contentType: 'text/html',
          body: '<html><body>413 Request Entity Too Large</body></html>',
        };
      if (request.eventIds.includes(idOf(3)))
        return { kind: 'refuse', rejected: [{ event_id: idOf(3), reason: 'rankings invalid' }] };
      return { kind: 'ok' };
    });
    appendOutboxEvents(
      paths.outbox,
      range(1, 8).map((i) => sampleEvent(i)),
    );
    const summary = await run();
    expect(summary).toMatchObject({ sent: 7, rejected: 1, remaining: 0, error: null });
    expect(server.committed).toEqual([1, 2, 4, 5, 6, 7, 8].map(idOf));
    expect(deadLetters(paths.deadLetter).map((l) => [l.event_id, l.reason, l.outbox_line])).toEqual([
      [idOf(3), 'rankings invalid', 3],
    ]);
    // 8 → 413; [1-4] → 413; [1,2] ok; [3,4] refuses 3; [4] ok; [5-8] → 413; [5,6] ok; [7,8] ok
    expect(server.requests.map((r) => r.eventIds.length)).toEqual([8, 4, 2, 2, 1, 4, 2, 2]);
  });

  it('stops at once on 401/403: nothing moves, nothing is dead-lettered', async () => {
    const { paths, run } = await setup(() => ({ kind: 'status', status: 401 }));
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const summary = await run();
    expect(summary.error?.code).toBe('UNAUTHORIZED');
    expect(summary.error?.message).toContain('LLM_COUNCIL_CLOUD_TOKEN');
    expect(existsSync(paths.cursor)).toBe(false);
    expect(existsSync(paths.deadLetter)).toBe(false);
  });

  it('stops on an answer that is not the ingest API (404, 405, a redirect): nothing moves, nothing is dead-lettered', async () => {
    for (const answer of [
      { kind: 'status', status: 404, body: { error: { message: 'no such route' } } },
      { kind: 'status', status: 405 },
      { kind: 'status', status: 302, headers: { location: 'https://elsewhere.example/v1/events' } },
    ] as const) {
      const { paths, run, server } = await setup(() => answer);
      appendOutboxEvents(
        paths.outbox,
        range(1, 4).map((i) => sampleEvent(i)),
      );
      const summary = await run();
      expect(summary.error?.code).toBe('UNEXPECTED_RESPONSE');
      expect(summary.error?.message).toContain(`HTTP ${answer.status}`);
      expect(summary.error?.message).toContain('LLM_COUNCIL_CLOUD_URL');
      expect(summary).toMatchObject({ sent: 0, rejected: 0, remaining: 4 });
      expect(server.requests).toHaveLength(1); // neither split nor retried nor followed
      expect(existsSync(paths.cursor)).toBe(false);
      expect(existsSync(paths.deadLetter)).toBe(false);
      await server.close();
    }
  });

  it('refuses a cursor past the end of a replaced outbox instead of skipping the events queued since', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(
      paths.outbox,
      range(1, 5).map((i) => sampleEvent(i)),
    );
    expect(await run()).toMatchObject({ sent: 5, error: null });
    // The user deletes the outbox (not the cursor); the CLI queues two new events in a fresh file.
    writeFileSync(paths.outbox, '');
    appendOutboxEvents(paths.outbox, [sampleEvent(6), sampleEvent(7)]);
    const cursorBefore = readFileSync(paths.cursor, 'utf8');
    const summary = await run();
    expect(summary.error?.code).toBe('INVALID_CURSOR');
    expect(summary.remaining).toBeNull(); // not a misleading 0
    expect(summary.error?.message).toContain(`delete ${paths.cursor}`);
    expect(summary.sent).toBe(0);
    expect(readFileSync(paths.cursor, 'utf8')).toBe(cursorBefore);
    // Following the message sends the two new events.
    writeFileSync(paths.cursor, '{"segment":0,"offset":0,"line":0}');
    expect(await run()).toMatchObject({ sent: 2, error: null });
    expect(server.committed.slice(5)).toEqual([idOf(6), idOf(7)]);
  });

  it('a torn last line is left for later; once a later append ends it, it is dead-lettered', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    const torn = JSON.stringify(sampleEvent(2)).slice(0, 40);
    appendFileSync(paths.outbox, torn);
    const first = await run();
    expect(first).toMatchObject({ sent: 1, remaining: 0, incompleteTail: true, setAside: 0, error: null });
    // The writer's next append starts with a newline (bias-store keeps a torn line alone).
    appendFileSync(paths.outbox, `\n${JSON.stringify(sampleEvent(3))}\n`);
    const second = await run();
    expect(second).toMatchObject({ sent: 1, setAside: 1, incompleteTail: false, remaining: 0 });
    expect(server.committed).toEqual([idOf(1), idOf(3)]);
    expect(deadLetters(paths.deadLetter)).toEqual([
      expect.objectContaining({
        refused_by: 'uploader',
        outbox_line: 2,
        reason: expect.stringContaining('invalid_json') as string,
      }),
    ]);
  });

  it('sets aside events of an unknown schema version and consent 0–1, sending the rest', async () => {
    const { paths, run, server } = await setup();
    const future = { ...sampleEvent(2), schema_version: '2.0.0' };
    const local = { schema_version: '1.1.0', event_id: idOf(3), session_id: 's3', consent_level: 1 };
    appendOutboxEvents(paths.outbox, [sampleEvent(1), future, local, sampleEvent(4)]);
    const summary = await run();
    expect(summary).toMatchObject({ sent: 2, setAside: 2, remaining: 0 });
    expect(server.committed).toEqual([idOf(1), idOf(4)]);
    const letters = deadLetters(paths.deadLetter);
    expect(letters.map((l) => l.outbox_line)).toEqual([2, 3]);
    expect(letters[0]!.reason).toContain('unsupported_version');
    expect(letters[1]!.reason).toContain('consent_level 1');
  });

  it('a field above an event’s consent level stops the upload there: nothing of it is sent', async () => {
    const { paths, run, server } = await setup();
    const leaky = { ...sampleEvent(3, 2), query_hash: 'abcdef0123456789' };
    appendOutboxEvents(paths.outbox, [sampleEvent(1), sampleEvent(2), leaky, sampleEvent(4)]);
    const summary = await run();
    expect(summary.error?.code).toBe('CONSENT_VIOLATION');
    expect(summary.error?.message).toContain('line 3');
    expect(summary.error?.message).toContain('query_hash (needs consent 4)');
    expect(server.committed).toEqual([idOf(1), idOf(2)]);
    expect(server.receivedBytes().toString()).not.toContain('abcdef0123456789');
    expect(summary.remaining).toBe(2);
    // it stays stopped on the next run too, without resending what went
    expect((await run()).error?.code).toBe('CONSENT_VIOLATION');
    expect(server.committed).toHaveLength(2);
  });

  it('with a lower consent ceiling sends queued events without the fields above it', async () => {
    const { paths, run, server } = await setup();
    appendOutboxEvents(paths.outbox, [sampleEvent(1, 4)]);
    expect(await run({ consentCeiling: 2 })).toMatchObject({ sent: 1, reduced: 1 });
    const sent = (JSON.parse(server.requests[0]!.body) as { events: Record<string, unknown>[] }).events[0]!;
    expect(Object.keys(sent).sort()).toEqual([
      'consent_level',
      'event_id',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    expect(sent.consent_level).toBe(2);
  });

  it('a dry run reports the batches and touches nothing', async () => {
    const { paths, client, server } = await setup();
    appendOutboxEvents(
      paths.outbox,
      range(1, 5).map((i) => sampleEvent(i)),
    );
    const batches: unknown[] = [];
    const summary = await uploadOutbox({
      paths,
      client,
      dryRun: true,
      batchSize: 2,
      onDryRunBatch: (b) => batches.push(b),
    });
    expect(summary).toMatchObject({ dryRun: true, sent: 5, batches: 3, remaining: 0 });
    expect(batches).toEqual([
      { events: [sampleEvent(1), sampleEvent(2)] },
      { events: [sampleEvent(3), sampleEvent(4)] },
      { events: [sampleEvent(5)] },
    ]);
    expect(server.requests).toHaveLength(0);
    expect(existsSync(paths.cursor)).toBe(false);
    expect(existsSync(paths.deadLetter)).toBe(false);
  });

  it('an empty or missing outbox is nothing to do', async () => {
    const { run, server } = await setup();
    expect(await run()).toMatchObject({ sent: 0, batches: 0, remaining: 0, error: null });
    expect(server.requests).toHaveLength(0);
  });

  it('a foreign cursor file is a clear error, not a silent restart', async () => {
    const { paths, run } = await setup();
    appendOutboxEvents(paths.outbox, [sampleEvent(1)]);
    writeFileSync(paths.cursor, 'not a cursor');
    const summary = await run();
    expect(summary.error?.code).toBe('IO_ERROR');
    expect(summary.error?.message).toContain('sent.cursor');
  });
});
