import { describe, expect, it } from 'vitest';
import { eventStreamBody } from './event-stream-body.js';
import { createRunLog } from './run-log.js';
import type { RunLog } from './run-log.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function readChunks(body: ReadableStream<Uint8Array>, during: () => Promise<void>): Promise<string[]> {
  const chunks: string[] = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      chunks.push(decoder.decode(value));
    }
  })();
  await during();
  await reading;
  return chunks;
}

describe('eventStreamBody', () => {
  it('sends the events of one turn as one chunk, replays after afterId, and closes after done', async () => {
    const log = createRunLog();
    log.append({ type: 'stage-started', data: { stage: 1, calls: 2 } });
    log.append({ type: 'model-started', data: { stage: 1, member: 'a', model: 'm/a' } });
    const body = eventStreamBody({ log, afterId: 1, keepAliveMs: 60_000 });
    const chunks = await readChunks(body, async () => {
      await turn();
      log.append({ type: 'synthesis-text', data: { chairman: 'a', text: 'Hel' } });
      log.append({ type: 'synthesis-text', data: { chairman: 'a', text: 'lo' } });
      await turn();
      log.append({ type: 'done', data: { status: 'finished' } });
    });
    expect(chunks).toEqual([
      'id: 2\nevent: model-started\ndata: {"stage":1,"member":"a","model":"m/a"}\n\n',
      'id: 3\nevent: synthesis-text\ndata: {"chairman":"a","text":"Hel"}\n\nid: 4\nevent: synthesis-text\ndata: {"chairman":"a","text":"lo"}\n\n',
      'id: 5\nevent: done\ndata: {"status":"finished"}\n\n',
    ]);
  });

  it('is empty when opened after done with nothing left to replay, and replays the rest otherwise', async () => {
    const log = createRunLog();
    log.append({ type: 'cancelled', data: {} });
    log.append({ type: 'done', data: { status: 'cancelled' } });
    expect(
      await readChunks(eventStreamBody({ log, afterId: 2, keepAliveMs: 60_000 }), () => Promise.resolve()),
    ).toEqual([]);
    expect(
      await readChunks(eventStreamBody({ log, afterId: 1, keepAliveMs: 60_000 }), () => Promise.resolve()),
    ).toEqual(['id: 2\nevent: done\ndata: {"status":"cancelled"}\n\n']);
  });

  it('sends a keep-alive comment on an idle stream and stops following the log when the client goes away', async () => {
    const log = createRunLog();
    let following = 0;
    const tracked: RunLog = {
      get events() {
        return log.events;
      },
      get ended() {
        return log.ended;
      },
      append: (event) => log.append(event),
      subscribe(afterId, listener) {
        following++;
        const stop = log.subscribe(afterId, listener);
        return () => {
          following--;
          stop();
        };
      },
    };
    const reader = eventStreamBody({ log: tracked, afterId: 0, keepAliveMs: 5 }).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(': keep-alive\n\n');
    expect(following).toBe(1);
    await reader.cancel();
    expect(following).toBe(0);
  });
});
