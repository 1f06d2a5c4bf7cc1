import type { CouncilCallContext, Message, ResponseFormat, Usage } from '@council/providers';
import { callModel } from './call-model.js';
import type { CallOutcome } from './call-model.js';
import type { CouncilStage } from './council-event.js';
import type { ResolvedMember } from './council-member.js';
import type { EmitCouncilEvent } from './create-event-emitter.js';
import { sumUsage } from './sum-usage.js';
import { omitUndefined } from './internal/omit-undefined.js';

/** One call of a stage: who, what it is shown, and its deadline. */
export interface ModelCall {
  stage: CouncilStage;
  member: ResolvedMember;
  messages: Message[];
  council: CouncilCallContext;
  timeoutMs: number;
  /** Streams the call and passes its text on as it is written (see `callModel`). */
  onTextDelta?: (text: string) => void;
  /** Asks for schema-constrained JSON where the member's model supports it (see `callModel`). */
  responseFormat?: ResponseFormat;
}

export type ModelCaller = (call: ModelCall) => Promise<CallOutcome>;

export interface CreateModelCallerOptions {
  emit: EmitCouncilEvent;
  abortSignal: AbortSignal | undefined;
  now: () => number;
  /** The integer seed passed to every model. */
  seed: number | undefined;
  /** A reply longer than this many UTF-8 bytes is a `too-large` failure (`config.maxReplyBytes`). */
  maxReplyBytes?: number;
}

/**
 * A reply past the size limit as a `too-large` failure: HTTP providers stop reading at their `maxResponseBytes`;
 * this holds for every other model (a custom `LanguageModelV1`, the simulated provider), so a session never keeps
 * a reply longer than the configuration allows. Counting stops at the limit.
 */
function tooLarge(outcome: CallOutcome, maxReplyBytes: number | undefined): CallOutcome {
  if (!outcome.ok || maxReplyBytes === undefined || outcome.text.length * 3 <= maxReplyBytes) return outcome;
  let bytes = 0;
  for (const char of outcome.text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes > maxReplyBytes) {
      return {
        ok: false,
        latencyMs: outcome.latencyMs,
        error: {
          reason: 'too-large',
          code: 'RESPONSE_TOO_LARGE',
          message: `reply too large: more than ${maxReplyBytes} bytes. Ask for a shorter answer, or raise maxReplyBytes.`,
        },
      };
    }
  }
  return outcome;
}

/**
 * The session's way to call a model: `callModel` with the session's signal, clock and seed, announcing
 * each call (`model-started`, `model-queued` and `model-dispatched` when it waits for its endpoint, then
 * `model-finished` and the running `usage`, or `model-failed`).
 */
export function createModelCaller(options: CreateModelCallerOptions): ModelCaller {
  const { emit, abortSignal, now, seed, maxReplyBytes } = options;
  const runningUsage: Array<Usage | null> = [];
  return async ({ stage, member, messages, council, timeoutMs, onTextDelta, responseFormat }) => {
    const who = { stage, member: member.id, model: member.modelId };
    emit({ type: 'model-started', ...who });
    const outcome = tooLarge(
      await callModel({
        model: member.model,
        messages,
        council,
        timeoutMs,
        abortSignal,
        now,
        seed,
        onQueued: () => emit({ type: 'model-queued', ...who }),
        onDispatched: () => emit({ type: 'model-dispatched', ...who }),
        ...omitUndefined({ onTextDelta, responseFormat }),
      }),
      maxReplyBytes,
    );
    if (outcome.ok) {
      emit({
        type: 'model-finished',
        stage,
        member: member.id,
        model: member.modelId,
        latencyMs: outcome.latencyMs,
        usage: outcome.usage,
      });
      runningUsage.push(outcome.usage);
      const total = sumUsage(runningUsage);
      emit({ type: 'usage', tokens: total.tokens, costUsd: total.costUsd });
    } else if (outcome.error.code !== 'STRUCTURED_OUTPUT_UNSUPPORTED') {
      // A refused structured request is asked again in text at once (stage 2): not a failure to show.
      emit({
        type: 'model-failed',
        stage,
        member: member.id,
        model: member.modelId,
        reason: outcome.error.reason,
        message: outcome.error.message,
      });
    }
    return outcome;
  };
}
