import type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  LanguageModelV1,
  StreamPart,
  Usage,
} from '../language-model-v1.js';
import { ProviderError } from '../provider-error.js';

/** One scripted turn: a text, a full result, or an error to throw. */
export type ScriptedStep =
  | string
  | {
      text: string;
      reasoning?: string;
      usage?: Partial<Usage>;
      finishReason?: FinishReason;
      delayMs?: number;
      responseId?: string;
    }
  | { error: unknown; delayMs?: number };

export interface ScriptedModelOptions {
  /** Default `scripted`. */
  provider?: string;
  /** Default `scripted-model`. */
  modelId?: string;
  /** Answers taken in order, one per call. */
  steps?: readonly ScriptedStep[];
  /** Answers calls once `steps` are used up (or instead of them). Gets the call and its 0-based index. */
  respond?: (options: GenerateOptions, index: number) => ScriptedStep | Promise<ScriptedStep>;
  /** Stream text in pieces of this many characters. Default 8. */
  chunkSize?: number;
  /**
   * The model's `supportsStructuredOutput`; absent by default (callers then ask in text). The script decides what
   * a call with `responseFormat` gets (see `calls`), e.g. a JSON text, or `{ error }` with a
   * `StructuredOutputUnsupportedError` to play a server that refuses.
   */
  supportsStructuredOutput?: boolean;
}

/** A LanguageModelV1 that plays back a script and records every call; no network. */
export interface ScriptedModel extends LanguageModelV1 {
  /** The options of every call, in order. */
  readonly calls: GenerateOptions[];
  doStream(options: GenerateOptions): AsyncIterable<StreamPart>;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Builds a scripted model: the same script gives the same results, so tests of callers are exact. */
export function createScriptedModel(options: ScriptedModelOptions = {}): ScriptedModel {
  const calls: GenerateOptions[] = [];
  const provider = options.provider ?? 'scripted';
  const modelId = options.modelId ?? 'scripted-model';
  const next = async (call: GenerateOptions): Promise<GenerateResult> => {
    const index = calls.length;
    calls.push(call);
    const started = Date.now();
    const step = index < (options.steps?.length ?? 0) ? options.steps![index]! : await options.respond?.(call, index);
    if (step === undefined) {
      throw new ProviderError({
        code: 'INVALID_SETTINGS',
        message: `Scripted model ${modelId} got call ${index + 1} but its script has ${options.steps?.length ?? 0} step(s) and no respond function. Add steps or a respond function.`,
      });
    }
    const full = typeof step === 'string' ? { text: step } : step;
    if ('delayMs' in full && full.delayMs) await wait(full.delayMs, call.abortSignal);
    else if (call.abortSignal?.aborted) throw call.abortSignal.reason;
    if ('error' in full) throw full.error;
    const usage: Usage = {
      inputTokens: full.usage?.inputTokens ?? Math.ceil(call.messages.reduce((n, m) => n + m.content.length, 0) / 4),
      outputTokens: full.usage?.outputTokens ?? Math.ceil(full.text.length / 4),
      costUsd: full.usage?.costUsd ?? 0,
    };
    if (full.usage?.reasoningTokens !== undefined) usage.reasoningTokens = full.usage.reasoningTokens;
    if (full.usage?.cachedTokens !== undefined) usage.cachedTokens = full.usage.cachedTokens;
    const result: GenerateResult = {
      text: full.text,
      usage,
      finishReason: full.finishReason ?? 'stop',
      latencyMs: Date.now() - started,
    };
    if (full.reasoning !== undefined) result.reasoning = full.reasoning;
    result.responseId = full.responseId ?? `${modelId}-${index + 1}`;
    if (call.seed !== undefined) result.seed = call.seed;
    return result;
  };
  return {
    specificationVersion: 'v1',
    provider,
    modelId,
    ...(options.supportsStructuredOutput === undefined
      ? {}
      : { supportsStructuredOutput: options.supportsStructuredOutput }),
    calls,
    doGenerate: next,
    async *doStream(call) {
      const result = await next(call);
      const size = options.chunkSize ?? 8;
      if (result.reasoning) yield { type: 'reasoning-delta', text: result.reasoning };
      for (let i = 0; i < result.text.length; i += size)
        yield { type: 'text-delta', text: result.text.slice(i, i + size) };
      yield {
        type: 'finish',
        finishReason: result.finishReason,
        usage: result.usage,
        ...(result.responseId ? { responseId: result.responseId } : {}),
      };
    },
  };
}
