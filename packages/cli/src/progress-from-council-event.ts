import type { CouncilEvent } from '@council/core';
import type { ProgressEvent } from './council-progress.js';
import { omitUndefined } from './omit-undefined.js';

const REASONS: Record<string, string> = {
  timeout: 'timed out',
  error: 'failed',
  empty: 'empty answer',
  aborted: 'aborted',
  'too-large': 'reply too large',
};

/** Translates a core session event into the live display's event, stamped with the time it arrived. */
export function progressFromCouncilEvent(event: CouncilEvent, at: number): ProgressEvent | null {
  switch (event.type) {
    case 'stage-started':
      return { type: 'stage-started', stage: event.stage, at };
    case 'stage-finished':
      return {
        type: 'stage-finished',
        stage: event.stage,
        at,
        succeeded: event.succeeded,
        ...omitUndefined({ unread: event.unread }),
      };
    case 'model-started':
      return { type: 'model-started', stage: event.stage, member: event.member, at };
    case 'model-queued':
      return { type: 'model-queued', stage: event.stage, member: event.member, at };
    case 'model-dispatched':
      return { type: 'model-dispatched', stage: event.stage, member: event.member, at };
    case 'model-finished':
      return { type: 'model-finished', stage: event.stage, member: event.member, at, latencyMs: event.latencyMs };
    case 'model-failed': {
      const reason = REASONS[event.reason] ?? event.reason;
      // The display shows the kind of failure, not the provider's message (which may be long).
      return { type: 'model-failed', stage: event.stage, member: event.member, at, reason };
    }
    case 'model-retried':
      return { type: 'model-retried', stage: event.stage, member: event.member, at, attempt: 2 };
    case 'usage':
      return { type: 'usage', tokens: event.tokens, costUsd: event.costUsd, at };
  }
}
