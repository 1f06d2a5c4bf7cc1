import type { CouncilEvent } from '@council/core';
import { STAGE_DONE_VERBS as DONE_VERBS, STAGE_NAMES } from '../stage-labels.js';

/** One `notifications/progress` payload, without the token. */
export interface ProgressUpdate {
  /** Steps done so far; increases with every update, as the protocol requires (a heartbeat adds a fraction). */
  progress: number;
  /** Steps expected in all; re-estimated when a stage starts (reviewers, a chairman fallback). */
  total: number;
  message: string;
}

export interface CouncilProgressNotifier {
  onEvent: (event: CouncilEvent) => void;
  /**
   * Says who the council is still waiting for, with a progress a fraction above the last step (½, ¾, ⅞ … of the
   * way to the next), so a client that resets its timeout on progress keeps waiting through a slow member.
   * Nothing is sent while no call is pending.
   */
  heartbeat: (now: number) => void;
}

/**
 * Turns a council's events into progress updates: one when each stage starts and one when each member's call
 * in it finishes or fails. A step is a stage start or a finished call, so a 3-member council is 3 + 3 + 3 + 1
 * steps when every member reviews. Messages name members, models and stages only: never the question.
 */
export function createCouncilProgressNotifier(options: {
  send: (update: ProgressUpdate) => void;
  now: () => number;
}): CouncilProgressNotifier {
  const { send } = options;
  let done = 0;
  let total = 0;
  let beats = 0;
  let stageStartedAt = 0;
  const pending = new Set<string>();
  // Calls waiting for a free slot of their endpoint (not sent yet: their deadline has not started).
  const queued = new Set<string>();
  const step = (message: string): void => {
    done++;
    beats = 0;
    total = Math.max(total, done);
    send({ progress: done, total, message });
  };
  const onEvent = (event: CouncilEvent): void => {
    switch (event.type) {
      case 'stage-started': {
        // This start, the stage's calls, then each later stage's start and calls (stage 2 estimated as stage 1's).
        const later = event.stage === 1 ? 1 + event.calls + 1 + 1 : event.stage === 2 ? 1 + 1 : 0;
        total = done + 1 + event.calls + later;
        stageStartedAt = options.now();
        const who =
          event.stage === 3 ? 'the chairman' : `${event.calls} ${event.stage === 1 ? 'members' : 'reviewers'}`;
        step(`stage ${event.stage} of 3 (${STAGE_NAMES[event.stage]}): ${who}`);
        return;
      }
      case 'model-started':
        pending.add(event.member);
        return;
      case 'model-queued':
        queued.add(event.member);
        return;
      case 'model-dispatched':
        queued.delete(event.member);
        return;
      case 'model-finished':
        pending.delete(event.member);
        queued.delete(event.member);
        step(
          `stage ${event.stage}: ${event.member} ${DONE_VERBS[event.stage]} in ${(event.latencyMs / 1000).toFixed(1)} s`,
        );
        return;
      case 'model-failed':
        pending.delete(event.member);
        queued.delete(event.member);
        step(`stage ${event.stage}: ${event.member} failed (${event.reason})`);
        return;
      case 'model-retried':
        // The fallback chairman is one more call.
        total++;
        return;
      case 'stage-finished':
        pending.clear();
        queued.clear();
        return;
      case 'usage':
        return;
    }
  };
  const heartbeat = (now: number): void => {
    if (pending.size === 0 || done === 0) return;
    beats++;
    const waited = Math.round((now - stageStartedAt) / 1000);
    // ½, ⅔, ¾ … of the way to the next step: always below it, and still increasing after thousands of beats
    // (1 - 2^-n rounds to 1 after about 50, and the protocol requires progress to increase).
    const sent = [...pending].filter((m) => !queued.has(m));
    const waiting = sent.length > 0 ? `still waiting for ${sent.join(', ')} (${waited} s)` : `waiting (${waited} s)`;
    const inQueue = queued.size > 0 ? `; queued for a free slot of their endpoint: ${[...queued].join(', ')}` : '';
    send({ progress: done + beats / (beats + 1), total, message: `${waiting}${inQueue}` });
  };
  return { onEvent, heartbeat };
}
