import type { LanguageModelV1 } from '@council/providers';
import { callModel } from './call-model.js';
import { CouncilError } from './council-error.js';

/**
 * One prompt to one model outside a council session (an evolution, a feedback summary), with the caller's model,
 * deadline (else `defaultTimeoutMs`) and abort signal: the reply's text, or a MODEL_FAILED CouncilError that names
 * the `task`'s model, says what went wrong and what to do (`remedy`).
 */
export async function promptModel(
  call: { model: LanguageModelV1; timeoutMs?: number | undefined; abortSignal?: AbortSignal | undefined },
  prompt: {
    text: string;
    defaultTimeoutMs: number;
    /** As the error names the model: `The ${task} model …`. */
    task: string;
    /** The error's last sentence, e.g. "Retry, or pick another model." */
    remedy: string;
  },
): Promise<string> {
  const { model } = call;
  const outcome = await callModel({
    model,
    messages: [{ role: 'user', content: prompt.text }],
    timeoutMs: call.timeoutMs ?? prompt.defaultTimeoutMs,
    abortSignal: call.abortSignal,
    now: Date.now,
    seed: undefined,
  });
  if (!outcome.ok)
    throw new CouncilError({
      code: 'MODEL_FAILED',
      message: `The ${prompt.task} model ${model.modelId} failed: ${outcome.error.message.replace(/\.+\s*$/, '')}. ${prompt.remedy}`,
    });
  return outcome.text;
}
