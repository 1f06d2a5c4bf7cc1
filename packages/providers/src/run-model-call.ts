import { APICallError } from './api-call-error.js';
import { openCallScope } from './call-scope.js';
import type { CallScope } from './call-scope.js';
import type { GenerateOptions, GenerateResult, StreamPart } from './language-model-v1.js';
import { ProviderError } from './provider-error.js';
import { limitBody } from './read-limited-body.js';
import type { ProviderRuntime } from './provider-runtime.js';
import { StructuredOutputUnsupportedError } from './structured-output-unsupported-error.js';

/** One whole answer as a provider reads it from a JSON reply: a `GenerateResult` without the call's latency. */
export type ModelReply = Omit<GenerateResult, 'latencyMs'>;

export interface ModelCallContext {
  runtime: ProviderRuntime;
  provider: string;
  modelId: string;
  /** The base URL the call goes to; with `modelId`, where a refusal of structured output is remembered. */
  baseURL: string;
  options: GenerateOptions;
}

/** The key of one endpoint and model in `ProviderRuntime.structuredOutputRefusals`. */
function structuredOutputKey(context: ModelCallContext): string {
  return `${context.baseURL}\u0000${context.modelId}`;
}

/**
 * For a call with `responseFormat` to an endpoint and model that refused structured output before in this
 * process: the same error again, marked `remembered` (the call then sends nothing). Otherwise undefined.
 */
function rememberedRefusal(context: ModelCallContext): StructuredOutputUnsupportedError | undefined {
  if (context.options.responseFormat === undefined) return undefined;
  const known = context.runtime.structuredOutputRefusals.get(structuredOutputKey(context));
  if (known === undefined) return undefined;
  return new StructuredOutputUnsupportedError({
    provider: known.provider,
    url: known.url,
    statusCode: known.statusCode,
    responseBody: known.responseBody,
    modelId: context.modelId,
    remembered: true,
    message: `${known.message} (No request was sent: this refusal is remembered from an earlier call.)`,
  });
}

/** Keeps a refusal of structured output, so later calls to this endpoint and model do not ask again. */
function rememberRefusal(context: ModelCallContext, error: unknown): void {
  if (
    context.options.responseFormat === undefined ||
    !StructuredOutputUnsupportedError.isInstance(error) ||
    error.remembered
  )
    return;
  context.runtime.structuredOutputRefusals.set(structuredOutputKey(context), error);
}

function open(context: ModelCallContext): CallScope {
  return openCallScope({
    timeoutMs: context.options.timeoutMs ?? context.runtime.timeoutMs,
    abortSignal: context.options.abortSignal,
    clock: context.runtime.clock,
    describe: `The ${context.provider} call to ${context.modelId}`,
  });
}

/** Calls a caller's listener; what it throws is the caller's problem and never fails the call. */
function notify(listener: (() => void) | undefined): void {
  try {
    listener?.();
  } catch {
    // A listener (progress display, the council's own deadline) must not break the model call.
  }
}

/**
 * Waits for a concurrency slot, abortable by the caller's `abortSignal` only: the call's deadline has not started.
 * `onQueued` fires when the call has to wait, `onDispatched` when such a call gets its slot; neither fires
 * for a call that found a slot free.
 */
async function acquireSlot(context: ModelCallContext): Promise<() => void> {
  const { options } = context;
  let queued = false;
  const release = await context.runtime.limiter.acquire(options.abortSignal, () => {
    queued = true;
    notify(options.onQueued);
  });
  if (queued) notify(options.onDispatched);
  return release;
}

/**
 * The start of every call, streaming or not: a remembered refusal is thrown before it waits; then the slot, then
 * the call's scope, whose deadline starts when the slot is granted. `end` gives the slot back and disposes the scope.
 */
async function enterCall(context: ModelCallContext): Promise<{ scope: CallScope; end: () => void }> {
  const refused = rememberedRefusal(context);
  if (refused) throw refused;
  const release = await acquireSlot(context);
  const scope = open(context);
  return {
    scope,
    end: () => {
      release();
      scope.dispose();
    },
  };
}

/** A call that waited in the queue may find that another was refused meanwhile (thrown inside the call's `try`). */
function throwRefusedMeanwhile(context: ModelCallContext): void {
  const refusedMeanwhile = rememberedRefusal(context);
  if (refusedMeanwhile) throw refusedMeanwhile;
}

/** What a failed call throws: a refusal of structured output is remembered, then the scope translates the error. */
function callFailure(context: ModelCallContext, scope: CallScope, error: unknown): unknown {
  rememberRefusal(context, error);
  return scope.translate(error);
}

/**
 * Runs one non-streaming call: waits for a concurrency slot, then runs `call` inside the call's deadline, which
 * starts when the slot is granted (so `latencyMs`, counted from `scope.startedAt`, leaves the wait out).
 */
export async function runGenerateCall<T>(
  context: ModelCallContext,
  call: (scope: CallScope) => Promise<T>,
): Promise<T> {
  const { scope, end } = await enterCall(context);
  try {
    throwRefusedMeanwhile(context);
    return await call(scope);
  } catch (error) {
    throw callFailure(context, scope, error);
  } finally {
    end();
  }
}

/** What a stream request got: an event stream to read, or (from a server that ignored `stream: true`) the whole reply. */
export type StreamOpening = { response: Response } | { reply: ModelReply };

/** A JSON media type (`application/json`, `application/problem+json`, with or without parameters). */
const jsonContentType = /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/**
 * Opens a stream response: one whose content-type is JSON, not `text/event-stream`, is the whole non-streaming
 * reply (some proxies ignore `stream: true`), read by `readReply` — the same schema, in-body error handling and
 * size limit as `doGenerate`. Used as `sendRequest`'s `read`, so an error in that body is retried as there.
 */
export async function openStream(
  response: Response,
  readReply: (response: Response) => Promise<ModelReply>,
): Promise<StreamOpening> {
  return jsonContentType.test(response.headers.get('content-type') ?? '')
    ? { reply: await readReply(response) }
    : { response };
}

/** A whole reply as stream parts: its reasoning (if any), its text, then the finish part. */
function* replyParts(reply: ModelReply): Generator<StreamPart> {
  if (reply.reasoning !== undefined && reply.reasoning !== '') yield { type: 'reasoning-delta', text: reply.reasoning };
  yield { type: 'text-delta', text: reply.text };
  const finish: StreamPart = { type: 'finish', finishReason: reply.finishReason, usage: reply.usage };
  if (reply.responseId !== undefined) finish.responseId = reply.responseId;
  if (reply.responseModelId !== undefined) finish.responseModelId = reply.responseModelId;
  yield finish;
}

/**
 * Runs one streaming call: waits for a concurrency slot, then `start` opens the response (with retries, before
 * any part is yielded; see `openStream`) and `parts` turns its body into stream parts — or, when the server
 * answered with the whole JSON reply, that reply is yielded as one reasoning-delta (if any), one text-delta and
 * the finish part. The deadline starts when the slot is granted and lasts, with the slot, until the stream
 * ends or the consumer stops; a connection that fails mid-stream is an APICallError.
 */
export async function* runStreamCall(
  context: ModelCallContext & { url: string },
  steps: {
    start: (scope: CallScope) => Promise<StreamOpening>;
    parts: (body: AsyncIterable<Uint8Array>) => AsyncIterable<StreamPart>;
  },
): AsyncGenerator<StreamPart> {
  const { scope, end } = await enterCall(context);
  try {
    throwRefusedMeanwhile(context);
    const opening = await steps.start(scope);
    if ('reply' in opening) {
      yield* replyParts(opening.reply);
      return;
    }
    const { response } = opening;
    const body = response.body;
    if (!body)
      throw new APICallError({
        provider: context.provider,
        modelId: context.modelId,
        url: context.url,
        isRetryable: true,
        statusCode: response.status,
        message: `${context.provider} answered the stream request for ${context.modelId} without a body. Retry the call.`,
      });
    try {
      yield* steps.parts(
        limitBody(body as AsyncIterable<Uint8Array>, {
          provider: context.provider,
          modelId: context.modelId,
          limitBytes: context.runtime.maxResponseBytes,
        }),
      );
    } catch (error) {
      if (scope.signal.aborted || ProviderError.isInstance(error)) throw error;
      throw new APICallError({
        provider: context.provider,
        modelId: context.modelId,
        url: context.url,
        statusCode: response.status,
        isRetryable: true,
        cause: error,
        message: `The ${context.provider} stream for ${context.modelId} broke off before it finished (${error instanceof Error ? error.message : String(error)}). Retry the call.`,
      });
    }
  } catch (error) {
    throw callFailure(context, scope, error);
  } finally {
    end();
  }
}
