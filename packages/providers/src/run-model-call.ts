import { APICallError } from './api-call-error.js';
import { openCallScope } from './call-scope.js';
import type { CallScope } from './call-scope.js';
import type { GenerateOptions, StreamPart } from './language-model-v1.js';
import { ProviderError } from './provider-error.js';
import { limitBody } from './read-limited-body.js';
import type { ProviderRuntime } from './provider-runtime.js';

export interface ModelCallContext {
  runtime: ProviderRuntime;
  provider: string;
  modelId: string;
  options: GenerateOptions;
}

function open(context: ModelCallContext): CallScope {
  return openCallScope({
    timeoutMs: context.options.timeoutMs ?? context.runtime.timeoutMs,
    abortSignal: context.options.abortSignal,
    clock: context.runtime.clock,
    describe: `The ${context.provider} call to ${context.modelId}`,
  });
}

/** Runs one non-streaming call inside its deadline and a concurrency slot. */
export async function runGenerateCall<T>(context: ModelCallContext, call: (scope: CallScope) => Promise<T>): Promise<T> {
  const scope = open(context);
  let release: (() => void) | undefined;
  try {
    release = await context.runtime.limiter.acquire(scope.signal);
    return await call(scope);
  } catch (error) {
    throw scope.translate(error);
  } finally {
    release?.();
    scope.dispose();
  }
}

/**
 * Runs one streaming call: `start` opens the response (with retries, before any part is yielded),
 * then `parts` turns its body into stream parts. The deadline and the concurrency slot last until
 * the stream ends or the consumer stops; a connection that fails mid-stream is an APICallError.
 */
export async function* runStreamCall(
  context: ModelCallContext & { url: string },
  steps: { start: (scope: CallScope) => Promise<Response>; parts: (body: AsyncIterable<Uint8Array>) => AsyncIterable<StreamPart> },
): AsyncGenerator<StreamPart> {
  const scope = open(context);
  let release: (() => void) | undefined;
  try {
    release = await context.runtime.limiter.acquire(scope.signal);
    const response = await steps.start(scope);
    const body = response.body;
    if (!body) throw new APICallError({ provider: context.provider, modelId: context.modelId, url: context.url, isRetryable: true, statusCode: response.status, message: `${context.provider} answered the stream request for ${context.modelId} without a body. Retry the call.` });
    try {
      yield* steps.parts(limitBody(body as AsyncIterable<Uint8Array>, { provider: context.provider, modelId: context.modelId, limitBytes: context.runtime.maxResponseBytes }));
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
    throw scope.translate(error);
  } finally {
    release?.();
    scope.dispose();
  }
}
