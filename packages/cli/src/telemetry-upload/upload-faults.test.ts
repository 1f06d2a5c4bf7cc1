import { readFileSync, statSync, existsSync } from 'node:fs';
import { createMulberry32 } from '@council/scoring';
import { afterEach, describe, expect, it } from 'vitest';
import { createIngestClient } from './ingest-client.js';
import type { IngestAnswer, IngestTestServer, ReceivedRequest } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { appendOutboxEvents, recordingSleep, sampleEvent } from './testing/sample-events.js';
import { tempHome } from './testing/temp-home.js';
import { uploadOutbox } from './upload-outbox.js';

let server: IngestTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * 40% answered, the rest spread over every fault the issue lists. Hangs are rarer (3%) because each
 * costs the client's whole timeout, which is kept at 1 s so that a slow answer on a loaded machine is
 * never mistaken for a hang (that would be a duplicate the server did not cause).
 */
/** A seeded draw in [0, 1), so a fault schedule is the same on every run. */
function seededRandom(seed: number): () => number {
  const rng = createMulberry32(seed);
  return () => rng.next();
}

function faultySchedule(seed: number) {
  const random = seededRandom(seed);
  const counts = { ok: 0, 500: 0, 429: 0, hang: 0, reset: 0, 'commit-then-fail': 0 };
  /** The events of every batch committed without an answer: the only ones that may come to the server twice. */
  const unanswered = new Set<string>();
  const answer = (request: ReceivedRequest): IngestAnswer => {
    const r = random();
    if (r < 0.4) return (counts.ok++, { kind: 'ok' });
    if (r < 0.55) return (counts[500]++, { kind: 'status', status: 500, body: { error: { message: 'internal' } } });
    if (r < 0.7) return (counts[429]++, { kind: 'status', status: 429, headers: { 'retry-after': '2' } });
    if (r < 0.73) return (counts.hang++, { kind: 'hang' });
    if (r < 0.87) return (counts.reset++, { kind: 'reset' });
    for (const id of request.eventIds) unanswered.add(id);
    return (counts['commit-then-fail']++, { kind: 'commit-then-fail' });
  };
  return { answer, counts, unanswered };
}

describe('uploading through a failing server', () => {
  it.each([1, 2])(
    'every one of 1,000 events arrives and is stored once; only events committed without an answer come again (seed %i)',
    async (seed) => {
      const { paths } = tempHome();
      const ids = Array.from({ length: 1000 }, (_, i) => sampleEvent(i + 1).event_id as string);
      appendOutboxEvents(
        paths.outbox,
        ids.map((_, i) => sampleEvent(i + 1, ((i % 3) + 2) as 2 | 3 | 4)),
      );
      const schedule = faultySchedule(seed);
      server = await startIngestTestServer({ answer: schedule.answer });
      const client = createIngestClient({ baseUrl: server.url, token: 't', userAgent: 'test', timeoutMs: 1000 });
      const sleeps: number[] = [];
      let runs = 0;
      let lastError: string | null = null;
      let alreadyHeld = 0;
      for (;;) {
        runs++;
        const summary = await uploadOutbox({
          paths,
          client,
          batchSize: 25,
          maxAttempts: 3,
          sleep: recordingSleep(sleeps),
          random: seededRandom(seed + runs),
        });
        alreadyHeld += summary.alreadyHeld;
        lastError = summary.error?.code ?? null;
        expect(['UNAVAILABLE', null]).toContain(lastError);
        if (summary.remaining === 0 && summary.error === null) break;
        expect(runs).toBeLessThan(200);
      }
      const counts = schedule.counts;
      // the schedule really exercised every fault
      for (const fault of ['500', '429', 'hang', 'reset', 'commit-then-fail'] as const)
        expect(counts[fault], fault).toBeGreaterThan(0);
      expect(runs).toBeGreaterThan(1);

      const committed = server.committed;
      const distinct = new Set(committed);
      expect(ids.filter((id) => !distinct.has(id))).toEqual([]); // none lost
      expect(distinct.size).toBe(1000);
      expect(committed).toHaveLength(1000); // none counted twice: each event_id is its idempotency key
      // Events came again only after a commit without an answer; the server recognised each, and the
      // uploader counted as already held exactly those a 2xx named.
      expect(server.duplicates.length).toBeGreaterThan(0);
      expect(server.duplicates.filter((id) => !schedule.unanswered.has(id))).toEqual([]);
      expect(alreadyHeld).toBeGreaterThan(0);
      expect(alreadyHeld).toBeLessThanOrEqual(server.duplicates.length);
      // Retry-After: 2 was honoured: every 429 that was retried in-run waited at least 2 s (sleeps are injected)
      expect(sleeps.filter((ms) => ms >= 2000).length).toBeGreaterThan(0);
      // nothing dead-lettered, and the cursor sits at the end of the outbox
      expect(existsSync(paths.deadLetter)).toBe(false);
      expect((JSON.parse(readFileSync(paths.cursor, 'utf8')) as { offset: number }).offset).toBe(
        statSync(paths.outbox).size,
      );
    },
    60_000,
  );
});
