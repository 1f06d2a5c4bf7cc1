import type { CouncilCallContext, GenerateResult, LanguageModelV1, Message, Usage } from '@council/providers';
import type { CallError } from './council-session.js';

export interface CallModelOptions {
  model: LanguageModelV1;
  messages: readonly Message[];
  timeoutMs: number;
  abortSignal: AbortSignal | undefined;
  now: () => number;
  seed: number | undefined;
  /** The council stage and the answers the prompt shows, for models that do not read prompts (the simulated provider). */
  council?: CouncilCallContext;
}

export type CallOutcome =
  | { ok: true; text: string; usage: Usage; latencyMs: number; result: GenerateResult }
  | { ok: false; error: CallError; latencyMs: number };

class DeadlineError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** A plain copy of a usage record with only the defined fields, so the session round-trips through JSON. */
export function cleanUsage(usage: Usage | undefined): Usage {
  const out: Usage = { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
  if (usage?.reasoningTokens !== undefined) out.reasoningTokens = usage.reasoningTokens;
  if (usage?.cachedTokens !== undefined) out.cachedTokens = usage.cachedTokens;
  if (usage?.costUsd !== undefined) out.costUsd = usage.costUsd;
  return out;
}

/**
 * One model call with a hard deadline: the call is asked to stop (its abort signal, `timeoutMs`) and,
 * whether or not it listens, the outcome is settled when the deadline passes — so a member that never
 * answers costs exactly its stage timeout. Never throws; failures come back as `{ ok: false }`.
 */
export async function callModel(options: CallModelOptions): Promise<CallOutcome> {
  const started = options.now();
  const controller = new AbortController();
  const outer = options.abortSignal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuterAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineError(options.timeoutMs);
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
    onOuterAbort = () => {
      controller.abort(outer?.reason);
      reject(new DOMException('aborted', 'AbortError'));
    };
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
  });
  try {
    const call = Promise.resolve().then(() =>
      options.model.doGenerate({
        messages: options.messages,
        abortSignal: controller.signal,
        timeoutMs: options.timeoutMs,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.council === undefined ? {} : { council: options.council }),
      }),
    );
    // A call that loses the race may still reject later; that must not become an unhandled rejection.
    call.catch(() => undefined);
    const result = await Promise.race([call, deadline]);
    const latencyMs = options.now() - started;
    if (typeof result.text !== 'string' || result.text.trim() === '') {
      return { ok: false, latencyMs, error: { reason: 'empty', code: null, message: 'the model returned no text' } };
    }
    return { ok: true, text: result.text, usage: cleanUsage(result.usage), latencyMs, result };
  } catch (error) {
    const latencyMs = options.now() - started;
    if (error instanceof DeadlineError) return { ok: false, latencyMs, error: { reason: 'timeout', code: 'TIMEOUT', message: `no answer within ${options.timeoutMs} ms` } };
    if (outer?.aborted) return { ok: false, latencyMs, error: { reason: 'aborted', code: 'ABORTED', message: 'the session was aborted' } };
    const code = errorCode(error);
    const reason = code === 'TIMEOUT' ? 'timeout' : code === 'EMPTY_RESPONSE' ? 'empty' : 'error';
    return { ok: false, latencyMs, error: { reason, code, message: error instanceof Error ? error.message : String(error) } };
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) outer?.removeEventListener('abort', onOuterAbort);
  }
}
