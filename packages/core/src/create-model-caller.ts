import type { CouncilCallContext, Message, Usage } from '@council/providers';
import { callModel } from './call-model.js';
import type { CallOutcome } from './call-model.js';
import type { CouncilStage } from './council-event.js';
import type { ResolvedMember } from './council-member.js';
import type { EmitCouncilEvent } from './create-event-emitter.js';
import { sumUsage } from './sum-usage.js';

/** One call of a stage: who, what it is shown, and its deadline. */
export interface ModelCall {
  stage: CouncilStage;
  member: ResolvedMember;
  messages: Message[];
  council: CouncilCallContext;
  timeoutMs: number;
  /** Streams the call and passes its text on as it is written (see `callModel`). */
  onTextDelta?: (text: string) => void;
}

export type ModelCaller = (call: ModelCall) => Promise<CallOutcome>;

export interface CreateModelCallerOptions {
  emit: EmitCouncilEvent;
  abortSignal: AbortSignal | undefined;
  now: () => number;
  /** The integer seed passed to every model. */
  seed: number | undefined;
}

/**
 * The session's way to call a model: `callModel` with the session's signal, clock and seed, announcing
 * each call (`model-started`, then `model-finished` and the running `usage`, or `model-failed`).
 */
export function createModelCaller(options: CreateModelCallerOptions): ModelCaller {
  const { emit, abortSignal, now, seed } = options;
  const runningUsage: Array<Usage | null> = [];
  return async ({ stage, member, messages, council, timeoutMs, onTextDelta }) => {
    emit({ type: 'model-started', stage, member: member.id, model: member.modelId });
    const outcome = await callModel({ model: member.model, messages, council, timeoutMs, abortSignal, now, seed, ...(onTextDelta === undefined ? {} : { onTextDelta }) });
    if (outcome.ok) {
      emit({ type: 'model-finished', stage, member: member.id, model: member.modelId, latencyMs: outcome.latencyMs, usage: outcome.usage });
      runningUsage.push(outcome.usage);
      const total = sumUsage(runningUsage);
      emit({ type: 'usage', tokens: total.tokens, costUsd: total.costUsd });
    } else {
      emit({ type: 'model-failed', stage, member: member.id, model: member.modelId, reason: outcome.error.reason, message: outcome.error.message });
    }
    return outcome;
  };
}
