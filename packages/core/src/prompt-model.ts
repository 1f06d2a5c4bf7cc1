import type { LanguageModelV1 } from '@council/providers';
import { callModel } from './call-model.js';
import { CouncilError } from './council-error.js';

/**
 * One prompt to one model outside a council session (an evolution, a feedback summary): the reply's text, or a
 * MODEL_FAILED CouncilError that names the `task`'s model, says what went wrong and what to do (`remedy`).
 */
export async function promptModel(options: {
  model: LanguageModelV1;
  prompt: string;
  timeoutMs: number;
  abortSignal: AbortSignal | undefined;
  /** As the error names the model: `The ${task} model …`. */
  task: string;
  /** The error's last sentence, e.g. "Retry, or pick another model." */
  remedy: string;
}): Promise<string> {
  const { model, task } = options;
  const outcome = await callModel({
    model,
    messages: [{ role: 'user', content: options.prompt }],
    timeoutMs: options.timeoutMs,
    abortSignal: options.abortSignal,
    now: Date.now,
    seed: undefined,
  });
  if (!outcome.ok)
    throw new CouncilError({
      code: 'MODEL_FAILED',
      message: `The ${task} model ${model.modelId} failed: ${outcome.error.message.replace(/\.+\s*$/, '')}. ${options.remedy}`,
    });
  return outcome.text;
}
