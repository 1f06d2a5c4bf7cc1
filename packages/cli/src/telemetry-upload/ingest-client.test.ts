import { afterEach, describe, expect, it } from 'vitest';
import { createIngestClient } from './ingest-client.js';
import type { IngestAnswer, IngestTestServer } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { closedPort } from './testing/closed-port.js';
import { sampleEvent } from './testing/sample-events.js';

const token = 'cloud-token-7f3a';
let server: IngestTestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(answer: (index: number) => IngestAnswer, timeoutMs = 2000) {
  server = await startIngestTestServer({ token, answer: (_request, index) => answer(index) });
  return createIngestClient({
    baseUrl: server.url,
    token,
    userAgent: 'council-telemetry/9.9.9 (test)',
    timeoutMs,
    now: () => Date.parse('2026-11-22T00:00:00Z'),
  });
}

const events = [sampleEvent(1), sampleEvent(2)] as { event_id: string }[];

describe('createIngestClient', () => {
  it('POSTs { events } to /v1/events with the bearer token and user agent, and no batch-wide idempotency key', async () => {
    const client = await clientFor(() => ({ kind: 'ok' }));
    const outcome = await client.send(events);
    expect(outcome).toEqual({ kind: 'accepted', status: 200, rejected: [], duplicates: [] });
    const request = server!.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/events');
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expect(request.headers['user-agent']).toBe('council-telemetry/9.9.9 (test)');
    expect(request.headers['content-type']).toContain('application/json');
    // Each event's event_id is its idempotency key (the ingest contract); a key per batch could not recognise
    // an event sent again in another batch.
    expect(request.headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual({ events });
    expect(client.endpoint).toBe(`${server!.url}/v1/events`);
  });

  it('returns the events a 2xx already held, recognised by event_id whatever batch carries them', async () => {
    const client = await clientFor(() => ({ kind: 'ok' }));
    await client.send([events[0]!]);
    expect(await client.send(events)).toEqual({
      kind: 'accepted',
      status: 200,
      rejected: [],
      duplicates: [events[0]!.event_id],
    });
    expect(server!.committed).toEqual(events.map((e) => e.event_id));
  });

  it('returns the rejected events of a 2xx', async () => {
    const client = await clientFor(() => ({
      kind: 'ok',
      rejected: [{ event_id: events[1]!.event_id, reason: 'duplicate session' }],
    }));
    expect(await client.send(events)).toEqual({
      kind: 'accepted',
      status: 200,
      rejected: [{ event_id: events[1]!.event_id, reason: 'duplicate session' }],
      duplicates: [],
    });
  });

  it('classifies 408, 429 and 5xx as retryable, with Retry-After in ms', async () => {
    const answers: IngestAnswer[] = [
      { kind: 'status', status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'slow down' } } },
      { kind: 'status', status: 503, headers: { 'retry-after': 'Sun, 22 Nov 2026 00:00:03 GMT' } },
      { kind: 'status', status: 408 },
      { kind: 'status', status: 500, body: { message: 'boom' } },
    ];
    const client = await clientFor((i) => answers[i]!);
    expect(await client.send(events)).toEqual({
      kind: 'retry',
      status: 429,
      reason: 'HTTP 429: slow down',
      retryAfterMs: 7000,
    });
    expect(await client.send(events)).toEqual({ kind: 'retry', status: 503, reason: 'HTTP 503', retryAfterMs: 3000 });
    expect(await client.send(events)).toMatchObject({ kind: 'retry', status: 408, retryAfterMs: undefined });
    expect(await client.send(events)).toMatchObject({ kind: 'retry', status: 500, reason: 'HTTP 500: boom' });
  });

  it('a 4xx naming events of the batch is a refusal of those; names of other events are ignored', async () => {
    const other = 'ffffffff-0000-4000-8000-000000000000';
    const client = await clientFor(() => ({
      kind: 'refuse',
      status: 422,
      message: 'rankings invalid',
      rejected: [
        { event_id: events[1]!.event_id, reason: 'rankings[0].final_rank must be ≥ 1' },
        { event_id: other, reason: 'not in this batch' },
      ],
    }));
    expect(await client.send(events)).toEqual({
      kind: 'refused',
      status: 422,
      reason: 'HTTP 422: rankings invalid',
      rejected: [{ event_id: events[1]!.event_id, reason: 'rankings[0].final_rank must be ≥ 1' }],
    });
  });

  it('a 4xx naming no event is retried, saying what answered; 413 so is too large; 404, 405, 410 and redirects (never followed) are unexpected', async () => {
    const client = await clientFor(
      (index) =>
        [
          {
            kind: 'raw',
            status: 400,
            contentType: 'text/html; charset=utf-8',
            body: '<html><body><h1>400 Bad Request</h1></body></html>',
          },
          { kind: 'status', status: 422, body: { error: { message: 'schema_version unsupported' } } },
          { kind: 'raw', status: 409, contentType: 'text/plain', body: 'conflict' },
          { kind: 'raw', status: 413, contentType: 'text/html', body: '<html>413</html>' },
          { kind: 'status', status: 404 },
          { kind: 'status', status: 405 },
          { kind: 'status', status: 410 },
          { kind: 'status', status: 307, headers: { location: '/elsewhere' } },
        ][index] as IngestAnswer,
    );
    expect(await client.send(events)).toEqual({
      kind: 'retry',
      status: 400,
      reason: "HTTP 400 (an HTML page, not council-cloud's answer: a proxy or gateway on the way may have sent it)",
      retryAfterMs: undefined,
      client: true,
    });
    expect(await client.send(events)).toMatchObject({
      kind: 'retry',
      status: 422,
      reason: 'HTTP 422: schema_version unsupported (council-cloud named no event of the batch, so none is refused)',
    });
    expect(await client.send(events)).toMatchObject({
      kind: 'retry',
      status: 409,
      reason:
        "HTTP 409 (a text/plain body, not council-cloud's answer: a proxy or gateway on the way may have sent it)",
    });
    expect(await client.send(events)).toMatchObject({ kind: 'too-large', status: 413 });
    expect(await client.send(events)).toMatchObject({ kind: 'unexpected', status: 404 });
    expect(await client.send(events)).toMatchObject({ kind: 'unexpected', status: 405 });
    expect(await client.send(events)).toMatchObject({ kind: 'unexpected', status: 410 });
    expect(await client.send(events)).toEqual({
      kind: 'unexpected',
      status: 307,
      reason: 'HTTP 307 (a redirect to /elsewhere)',
    });
    expect(server!.requests).toHaveLength(8); // the redirect was not followed
  });

  it('takes a 2xx with an unreadable body as committed, with a warning', async () => {
    const client = await clientFor(() => ({ kind: 'status', status: 200, body: { rejected: 'all of them' } }));
    const outcome = await client.send(events);
    expect(outcome).toMatchObject({ kind: 'accepted', status: 200, rejected: [] });
    expect(outcome.kind === 'accepted' ? outcome.warning : undefined).toContain('not the documented');
  });

  it('classifies 401/403 as unauthorized', async () => {
    const answers: IngestAnswer[] = [{ kind: 'status', status: 403, body: { error: 'token lacks ingest scope' } }];
    const client = await clientFor((i) => answers[i]!);
    expect(await client.send(events)).toEqual({
      kind: 'unauthorized',
      status: 403,
      reason: 'HTTP 403: token lacks ingest scope',
    });
    const wrong = createIngestClient({ baseUrl: server!.url, token: 'wrong', userAgent: 'x' });
    expect(await wrong.send(events)).toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('never repeats the token in a reason, even when the server echoes it', async () => {
    const client = await clientFor(() => ({
      kind: 'status',
      status: 400,
      body: { message: `bad token ${token} here` },
    }));
    const outcome = await client.send(events);
    expect(JSON.stringify(outcome)).not.toContain(token);
  });

  it('gives up on a server that never answers after timeoutMs', async () => {
    const client = await clientFor(() => ({ kind: 'hang' }), 300);
    // The reason is given only by the client's own timer, armed with timeoutMs: no wall-clock bound is needed to
    // tell it from a socket's default timeout, and a client that never gave up would fail on the test's timeout.
    expect(await client.send(events)).toEqual({
      kind: 'retry',
      status: null,
      reason: 'no answer within 300 ms (timeout)',
      retryAfterMs: undefined,
    });
  });

  it('reports a reset connection and a refused one as retryable network errors', async () => {
    const client = await clientFor(() => ({ kind: 'reset' }));
    const reset = await client.send(events);
    expect(reset).toMatchObject({ kind: 'retry', status: null });
    expect(reset.kind === 'retry' && reset.reason).toMatch(/reset|closed/);
    const refused = createIngestClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      token,
      userAgent: 'x',
      timeoutMs: 2000,
    });
    expect(await refused.send(events)).toEqual({
      kind: 'retry',
      status: null,
      reason: 'connection refused (nothing listens there) (ECONNREFUSED)',
      retryAfterMs: undefined,
    });
  });

  it('refuses empty and oversized batches before sending', async () => {
    const client = await clientFor(() => ({ kind: 'ok' }));
    await expect(client.send([])).rejects.toThrow(RangeError);
    await expect(
      client.send(Array.from({ length: 101 }, (_, i) => sampleEvent(i) as { event_id: string })),
    ).rejects.toThrow('1 to 100');
    expect(server!.requests).toHaveLength(0);
  });
});
