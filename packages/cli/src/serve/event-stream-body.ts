import type { RunLog } from './run-log.js';
import { formatStreamEvent } from './stream-event.js';

export interface EventStreamBodyOptions {
  log: RunLog;
  /** Replay starts after this event id (0: from the first; a `Last-Event-ID`). */
  afterId: number;
  /** A `: keep-alive` comment this often while nothing else is sent. */
  keepAliveMs: number;
}

/**
 * The body of a run's `text/event-stream`: the events after `afterId` (replayed, then live), closed after `done`.
 *
 * Events appended in one turn of the event loop leave as one chunk, written after that turn (setImmediate):
 * the replay, a stage's `model-started` events, the chairman's pieces of one provider chunk. A session of the
 * simulated council appends about 105 events in about 10 turns, so the socket sees 10 writes instead of 105;
 * one write per event cost the server more CPU than the session itself once 50 sessions shared the event loop.
 * The delay this adds is the rest of the current turn.
 */
export function eventStreamBody(options: EventStreamBodyOptions): ReadableStream<Uint8Array> {
  const { log } = options;
  const encoder = new TextEncoder();
  let pending = '';
  let flushing: NodeJS.Immediate | null = null;
  let ending = false;
  let stop: () => void = () => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const flush = () => {
        flushing = null;
        if (pending !== '') controller.enqueue(encoder.encode(pending));
        pending = '';
        if (ending) {
          stop();
          controller.close();
        }
      };
      const send = (text: string) => {
        pending += text;
        flushing ??= setImmediate(flush);
      };
      const keepAlive = setInterval(() => {
        if (pending === '') send(': keep-alive\n\n');
      }, options.keepAliveMs);
      let unsubscribe: () => void = () => undefined;
      stop = () => {
        clearInterval(keepAlive);
        if (flushing !== null) clearImmediate(flushing);
        flushing = null;
        unsubscribe();
      };
      unsubscribe = log.subscribe(options.afterId, (event) => {
        send(formatStreamEvent(event));
        if (event.type === 'done') ending = true;
      });
      // Opened after `done` with nothing left to replay: an empty stream.
      if (log.ended && (log.events.at(-1)?.id ?? 0) <= options.afterId) {
        ending = true;
        flushing ??= setImmediate(flush);
      }
    },
    // The client went away.
    cancel() {
      stop();
    },
  });
}
