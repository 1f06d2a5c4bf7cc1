import type { CouncilEvent, CouncilStage } from '@council/core';

/** One `notifications/progress` payload, without the token. */
export interface ProgressUpdate {
  /** Steps done so far; increases with every update, as the protocol requires. */
  progress: number;
  /** Steps expected in all; re-estimated when a stage starts (reviewers, a chairman fallback). */
  total: number;
  message: string;
}

const STAGE_NAMES: Record<CouncilStage, string> = { 1: 'answers', 2: 'reviews', 3: 'synthesis' };
const DONE_VERBS: Record<CouncilStage, string> = { 1: 'answered', 2: 'reviewed', 3: 'synthesised' };

/**
 * Turns a council's events into progress updates: one when each stage starts and one when each member's call
 * in it finishes or fails. A step is a stage start or a finished call, so a 3-member council is 3 + 3 + 3 + 1
 * steps when every member reviews. Messages name members, models and stages only: never the question.
 */
export function createCouncilProgressNotifier(send: (update: ProgressUpdate) => void): (event: CouncilEvent) => void {
  let done = 0;
  let total = 0;
  const step = (message: string): void => {
    done++;
    total = Math.max(total, done);
    send({ progress: done, total, message });
  };
  return (event) => {
    switch (event.type) {
      case 'stage-started': {
        // This start, the stage's calls, then each later stage's start and calls (stage 2 estimated as stage 1's).
        const later = event.stage === 1 ? 1 + event.calls + 1 + 1 : event.stage === 2 ? 1 + 1 : 0;
        total = done + 1 + event.calls + later;
        const who = event.stage === 3 ? 'the chairman' : `${event.calls} ${event.stage === 1 ? 'members' : 'reviewers'}`;
        step(`stage ${event.stage} of 3 (${STAGE_NAMES[event.stage]}): ${who}`);
        return;
      }
      case 'model-finished':
        step(`stage ${event.stage}: ${event.member} ${DONE_VERBS[event.stage]} in ${(event.latencyMs / 1000).toFixed(1)} s`);
        return;
      case 'model-failed':
        step(`stage ${event.stage}: ${event.member} failed (${event.reason})`);
        return;
      case 'model-retried':
        // The fallback chairman is one more call.
        total++;
        return;
      case 'stage-finished':
      case 'model-started':
      case 'usage':
        return;
    }
  };
}
