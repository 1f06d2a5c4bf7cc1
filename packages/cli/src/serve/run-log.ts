import type { StreamEvent, StreamEventBody } from './stream-event.js';

export type RunStatus = 'running' | 'finished' | 'failed' | 'cancelled';

/** A subscriber's callback: each event after the one it asked for, in order, the `done` event last. */
export type RunListener = (event: StreamEvent) => void;

/**
 * The event log of one run: events numbered 1, 2, 3… as they are appended, kept whole for replay, and handed to
 * every subscriber. Subscribing replays the events after `afterId` first, then the live ones, so a client that
 * reconnects with `Last-Event-ID` misses none and sees none twice.
 */
export interface RunLog {
  readonly events: readonly StreamEvent[];
  /** True once `done` was appended: nothing follows it. */
  readonly ended: boolean;
  append(event: StreamEventBody): void;
  /** Replays, then follows; the returned function stops following. Ends by itself after `done`. */
  subscribe(afterId: number, listener: RunListener): () => void;
}

export function createRunLog(): RunLog {
  const events: StreamEvent[] = [];
  const listeners = new Set<RunListener>();
  let ended = false;
  return {
    events,
    get ended() {
      return ended;
    },
    append(body) {
      if (ended) return;
      const event: StreamEvent = { id: events.length + 1, ...body };
      events.push(event);
      if (event.type === 'done') ended = true;
      for (const listener of [...listeners]) listener(event);
      if (ended) listeners.clear();
    },
    subscribe(afterId, listener) {
      for (const event of events.slice(Math.max(0, afterId))) listener(event);
      if (ended) return () => undefined;
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
