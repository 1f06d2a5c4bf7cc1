import type {
  CouncilCallContext,
  GenerateOptions,
  GenerateResult,
  LanguageModelV1,
  Message,
  ResponseFormat,
  SimulatedProviderOptions,
  StreamPart,
  Usage,
} from '@council/providers';
import { scrubSecrets } from '@council/providers';
import type { CallError } from './council-session.js';
import { omitUndefined } from './internal/omit-undefined.js';

export interface CallModelOptions {
  model: LanguageModelV1;
  messages: readonly Message[];
  timeoutMs: number;
  abortSignal: AbortSignal | undefined;
  now: () => number;
  seed: number | undefined;
  /**
   * The council stage and the answers the prompt shows, for models that do not read prompts: sent as
   * `providerOptions.simulated.council`, the simulated provider's own namespace, which every other provider ignores.
   */
  council?: CouncilCallContext;
  /**
   * Receives the text as it is written: the call streams (`doStream`) when the model can, and falls back to
   * `doGenerate` when it cannot. Never called after the call settled (deadline, abort); a throwing listener is ignored.
   */
  onTextDelta?: (text: string) => void;
  /** Asks for a reply following a JSON schema (only passed to a model whose `supportsStructuredOutput` is true). */
  responseFormat?: ResponseFormat;
  /** The call waits for a free slot of its endpoint: its deadline is paused until `onDispatched`. */
  onQueued?: () => void;
  /** A queued call was sent: its deadline starts again, whole. */
  onDispatched?: () => void;
}

export type CallOutcome =
  | { ok: true; text: string; usage: Usage; latencyMs: number; result: GenerateResult }
  | { ok: false; error: CallError; latencyMs: number };

/**
 * The simulated provider's options for a call: its council context. Set on every call, whatever the model, as
 * vercel/ai callers do with provider options: each provider reads its own namespace and ignores the rest, so core
 * need not know which provider a member's model comes from.
 */
function simulatedOptions(council: CouncilCallContext): SimulatedProviderOptions {
  return { council };
}

/** Calls a listener; one that throws must not fail the call. */
function quietly(listener: (() => void) | undefined): void {
  try {
    listener?.();
  } catch {
    // A failing display must not fail the call.
  }
}

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

/** Reads a stream to its end into the result `doGenerate` would have given, passing each text delta on. */
async function collectStream(options: {
  stream: AsyncIterable<StreamPart>;
  onTextDelta: (text: string) => void;
  now: () => number;
}): Promise<GenerateResult> {
  const started = options.now();
  let text = '';
  let reasoning = '';
  let finish: Extract<StreamPart, { type: 'finish' }> | undefined;
  for await (const part of options.stream) {
    if (part.type === 'text-delta') {
      text += part.text;
      options.onTextDelta(part.text);
    } else if (part.type === 'reasoning-delta') reasoning += part.text;
    else finish = part;
  }
  return {
    text,
    ...(reasoning === '' ? {} : { reasoning }),
    usage: finish?.usage ?? { inputTokens: 0, outputTokens: 0 },
    finishReason: finish?.finishReason ?? 'unknown',
    latencyMs: options.now() - started,
    ...omitUndefined({ responseId: finish?.responseId, responseModelId: finish?.responseModelId }),
  };
}

/**
 * One model call with a hard deadline: the call is asked to stop (its abort signal, `timeoutMs`) and,
 * whether or not it listens, the outcome is settled when the deadline passes — so a member that never
 * answers costs exactly its stage timeout. The deadline counts from when the call is sent: a model that reports
 * waiting in its endpoint's queue (`onQueued`) has the deadline paused until it is sent (`onDispatched`), and
 * `latencyMs` counts from then too. Never throws; failures come back as `{ ok: false }`.
 */
export async function callModel(options: CallModelOptions): Promise<CallOutcome> {
  let started = options.now();
  const controller = new AbortController();
  const outer = options.abortSignal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuterAbort: (() => void) | undefined;
  let startDeadline: () => void = () => undefined;
  let queued = false;
  const deadline = new Promise<never>((_, reject) => {
    startDeadline = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const error = new DeadlineError(options.timeoutMs);
        controller.abort(error);
        reject(error);
      }, options.timeoutMs);
    };
    startDeadline();
    onOuterAbort = () => {
      controller.abort(outer?.reason);
      reject(new DOMException('aborted', 'AbortError'));
    };
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
  });
  let settled = false;
  const listener = options.onTextDelta;
  const onTextDelta = (text: string) => {
    if (settled || listener === undefined) return;
    try {
      listener(text);
    } catch {
      // A failing display must not fail the call.
    }
  };
  const model = options.model;
  const onQueued = (): void => {
    if (settled || queued) return;
    queued = true;
    clearTimeout(timer);
    quietly(options.onQueued);
  };
  const onDispatched = (): void => {
    if (settled || !queued) return;
    queued = false;
    started = options.now();
    startDeadline();
    quietly(options.onDispatched);
  };
  try {
    const request: GenerateOptions = {
      messages: options.messages,
      abortSignal: controller.signal,
      timeoutMs: options.timeoutMs,
      onQueued,
      onDispatched,
      ...omitUndefined({ seed: options.seed }),
      ...(options.council === undefined ? {} : { providerOptions: { simulated: simulatedOptions(options.council) } }),
      ...(options.responseFormat !== undefined && model.supportsStructuredOutput === true
        ? { responseFormat: options.responseFormat }
        : {}),
    };
    const call = Promise.resolve().then(() =>
      listener !== undefined && typeof model.doStream === 'function'
        ? collectStream({ stream: model.doStream(request), onTextDelta, now: options.now })
        : model.doGenerate(request),
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
    if (error instanceof DeadlineError)
      return {
        ok: false,
        latencyMs,
        error: { reason: 'timeout', code: 'TIMEOUT', message: `no answer within ${options.timeoutMs} ms` },
      };
    if (outer?.aborted)
      return {
        ok: false,
        latencyMs,
        error: { reason: 'aborted', code: 'ABORTED', message: 'the session was aborted' },
      };
    const code = errorCode(error);
    const reason =
      code === 'TIMEOUT'
        ? 'timeout'
        : code === 'EMPTY_RESPONSE'
          ? 'empty'
          : code === 'RESPONSE_TOO_LARGE'
            ? 'too-large'
            : 'error';
    // Scrubbed where it enters the session: a model that is not one of @council/providers' (whose errors are) may quote
    // its URL, credentials and all, and the message goes to the terminal, the history, serve and MCP.
    return {
      ok: false,
      latencyMs,
      error: { reason, code, message: scrubSecrets(error instanceof Error ? error.message : String(error)) },
    };
  } finally {
    settled = true;
    clearTimeout(timer);
    if (onOuterAbort) outer?.removeEventListener('abort', onOuterAbort);
  }
}
