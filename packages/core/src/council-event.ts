import type { Usage } from '@council/providers';
import type { FailureReason } from './council-session.js';

/** A pipeline stage: 1 answers, 2 reviews, 3 synthesis. */
export type CouncilStage = 1 | 2 | 3;

/**
 * Progress of a running session, for displays (the CLI's progress is built on it). Listeners that
 * throw are ignored; events never carry the query text.
 */
export type CouncilEvent =
  | { type: 'stage-started'; stage: CouncilStage; calls: number }
  /** `succeeded` calls answered; at stage 2, `unread` of them gave no ranking that could be read (even after a repair request). */
  | { type: 'stage-finished'; stage: CouncilStage; succeeded: number; failed: number; unread?: number }
  | { type: 'model-started'; stage: CouncilStage; member: string; model: string }
  /** The call waits for a free slot of its endpoint (the provider's concurrency limit); its deadline runs from `model-dispatched`. */
  | { type: 'model-queued'; stage: CouncilStage; member: string; model: string }
  /** A queued call left the queue and was sent. */
  | { type: 'model-dispatched'; stage: CouncilStage; member: string; model: string }
  | { type: 'model-finished'; stage: CouncilStage; member: string; model: string; latencyMs: number; usage: Usage }
  | { type: 'model-failed'; stage: CouncilStage; member: string; model: string; reason: FailureReason; message: string }
  /** The chairman failed and the next one in `chairmanFallbacks` takes over. */
  | {
      type: 'model-retried';
      stage: CouncilStage;
      member: string;
      model: string;
      previous: string;
      reason: FailureReason;
    }
  /** Running totals after each finished call. */
  | { type: 'usage'; tokens: number; costUsd: number | null };
