import * as z from 'zod';
import type { APICallError } from './api-call-error.js';
import { createApiError } from './create-api-error.js';
import { EmptyResponseError } from './empty-response-error.js';
import type { FinishReason, GenerateOptions, GenerateResult, LanguageModelV1, StreamPart, Usage } from './language-model-v1.js';
import { parseSse } from './parse-sse.js';
import type { ProviderRuntime } from './provider-runtime.js';
import { parseErrorBody } from './parse-error-body.js';
import { parseJsonResponse } from './read-json-response.js';
import { readLimitedText } from './read-limited-body.js';
import { errorBodyExcerpt, redactSecrets } from './redact-secrets.js';
import { runGenerateCall, runStreamCall } from './run-model-call.js';
import { sendRequest } from './send-request.js';
import type { HttpFailure } from './send-request.js';

const errorSchema = z.object({ type: z.string().nullish(), message: z.string().nullish() });
const errorBodySchema = z.object({ error: errorSchema.nullish() });

const usageSchema = z
  .object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
  })
  .nullish();

const responseSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  content: z.array(z.object({ type: z.string(), text: z.string().nullish(), thinking: z.string().nullish() })).nullish(),
  stop_reason: z.string().nullish(),
  usage: usageSchema,
});

const eventSchema = z.object({
  type: z.string(),
  message: z.object({ id: z.string().nullish(), model: z.string().nullish(), usage: usageSchema }).nullish(),
  delta: z.object({ type: z.string().nullish(), text: z.string().nullish(), thinking: z.string().nullish(), stop_reason: z.string().nullish() }).nullish(),
  usage: usageSchema,
  error: errorSchema.nullish(),
});

/** Anthropic's error types, as the HTTP status each one comes with. */
const statusOfErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    case null:
    case undefined:
      return 'unknown';
    default:
      return 'other';
  }
}

export interface AnthropicMessagesConfig {
  runtime: ProviderRuntime;
  baseURL: () => string;
  apiKey: () => string;
  headers: () => Record<string, string>;
  /** `max_tokens` is required by the API; this is sent when a call gives no `maxTokens`. */
  defaultMaxTokens: number;
}

/** A model behind Anthropic's Messages API: `POST {baseURL}/messages`. */
export class AnthropicMessagesModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'anthropic';
  readonly modelId: string;
  readonly #config: AnthropicMessagesConfig;

  constructor(modelId: string, config: AnthropicMessagesConfig) {
    this.modelId = modelId;
    this.#config = config;
  }

  #request(options: GenerateOptions, stream: boolean): { url: string; headers: Record<string, string>; body: Record<string, unknown>; secrets: string[] } {
    const key = this.#config.apiKey();
    const system = options.messages.filter((m) => m.role === 'system').map((m) => m.content);
    const body: Record<string, unknown> = {
      model: this.modelId,
      max_tokens: options.maxTokens ?? this.#config.defaultMaxTokens,
      ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
      messages: options.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content })),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(stream ? { stream: true } : {}),
      ...options.providerOptions?.anthropic,
    };
    return {
      url: `${this.#config.baseURL()}/messages`,
      headers: { 'anthropic-version': '2023-06-01', ...this.#config.headers(), 'x-api-key': key },
      body,
      secrets: [key],
    };
  }

  #error(options: { statusCode: number; error: z.infer<typeof errorSchema> | undefined; bodyText: string; url: string; secrets: readonly string[]; retryAfterMs?: number }): APICallError {
    const detail = options.error?.message ?? options.error?.type ?? undefined;
    return createApiError({
      provider: this.provider,
      modelId: this.modelId,
      url: options.url,
      statusCode: options.statusCode,
      detail: detail == null ? undefined : redactSecrets(detail, options.secrets).slice(0, 500),
      responseBody: errorBodyExcerpt(options.bodyText, options.secrets),
      keyHint: 'ANTHROPIC_API_KEY (or the apiKey setting)',
      ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
    });
  }

  #mapFailure(url: string, secrets: readonly string[]): (failure: HttpFailure) => APICallError {
    return (failure) => {
      const error = parseErrorBody(failure.bodyText, errorBodySchema)?.error ?? undefined;
      return this.#error({ statusCode: failure.statusCode, error, bodyText: failure.bodyText, url, secrets, ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }) });
    };
  }

  #usage(usage: z.infer<typeof usageSchema>): Usage {
    const cacheRead = usage?.cache_read_input_tokens ?? 0;
    const result: Usage = {
      // Anthropic's input_tokens leaves out tokens read from or written to the cache.
      inputTokens: (usage?.input_tokens ?? 0) + cacheRead + (usage?.cache_creation_input_tokens ?? 0),
      outputTokens: usage?.output_tokens ?? 0,
    };
    if (usage?.cache_read_input_tokens != null) result.cachedTokens = cacheRead;
    return result;
  }

  #empty(finishReason: FinishReason, reasoning: string, maxTokens: number): EmptyResponseError {
    const { provider, modelId } = this;
    if (finishReason === 'length' && reasoning !== '') {
      return new EmptyResponseError({ provider, modelId, reason: 'reasoning-used-budget', message: `${modelId} spent its whole token budget (max_tokens ${maxTokens}) thinking and returned no answer. Raise maxTokens above the thinking budget_tokens, or lower budget_tokens.` });
    }
    if (finishReason === 'content-filter') return new EmptyResponseError({ provider, modelId, reason: 'content-filter', message: `${modelId} refused to answer (stop_reason refusal). Rephrase the prompt or choose another model.` });
    return new EmptyResponseError({ provider, modelId, reason: 'empty', message: `${modelId} returned an empty answer (finish reason: ${finishReason}). Retry, or choose another model.` });
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    const { runtime } = this.#config;
    return runGenerateCall({ runtime, provider: this.provider, modelId: this.modelId, options }, async (scope) => {
      const request = this.#request(options, false);
      const { url, secrets } = request;
      const json = await sendRequest({
        runtime,
        scope,
        provider: this.provider,
        modelId: this.modelId,
        url,
        headers: request.headers,
        body: request.body,
        mapError: this.#mapFailure(url, secrets),
        read: async (response) => parseJsonResponse({ text: await readLimitedText(response, { provider: this.provider, modelId: this.modelId, limitBytes: runtime.maxResponseBytes, overflow: 'throw' }), schema: responseSchema, url, provider: this.provider, secrets }),
      });
      const text = (json.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
      const reasoning = (json.content ?? []).filter((c) => c.type === 'thinking').map((c) => c.thinking ?? '').join('');
      const finishReason = mapAnthropicStopReason(json.stop_reason);
      if (text.trim() === '') throw this.#empty(finishReason, reasoning, request.body.max_tokens as number);
      const out: GenerateResult = { text, usage: this.#usage(json.usage), finishReason, latencyMs: runtime.clock.now() - scope.startedAt };
      if (reasoning !== '') out.reasoning = reasoning;
      if (json.id) out.responseId = json.id;
      if (json.model) out.responseModelId = json.model;
      return out;
    });
  }

  doStream(options: GenerateOptions): AsyncIterable<StreamPart> {
    const { runtime } = this.#config;
    const url = `${this.#config.baseURL()}/messages`;
    let secrets: readonly string[] = [];
    let maxTokens = 0;
    return runStreamCall(
      { runtime, provider: this.provider, modelId: this.modelId, options, url },
      {
        start: (scope) => {
          const request = this.#request(options, true);
          secrets = request.secrets;
          maxTokens = request.body.max_tokens as number;
          return sendRequest({ runtime, scope, provider: this.provider, modelId: this.modelId, url: request.url, headers: request.headers, body: request.body, mapError: this.#mapFailure(request.url, secrets), read: (r) => Promise.resolve(r) });
        },
        parts: (body) => this.#streamParts(body, { secrets, url, maxTokens }),
      },
    );
  }

  async *#streamParts(body: AsyncIterable<Uint8Array>, context: { secrets: readonly string[]; url: string; maxTokens: number }): AsyncGenerator<StreamPart> {
    let usage: z.infer<typeof usageSchema> = {};
    let finishReason: FinishReason = 'unknown';
    let responseId: string | undefined;
    let responseModelId: string | undefined;
    let sawText = false;
    let reasoning = '';
    let stopped = false;
    for await (const sse of parseSse(body)) {
      const event = parseJsonResponse({ text: sse.data, schema: eventSchema, url: context.url, provider: this.provider, secrets: context.secrets });
      switch (event.type) {
        case 'message_start':
          responseId = event.message?.id ?? undefined;
          responseModelId = event.message?.model ?? undefined;
          usage = { ...event.message?.usage };
          break;
        case 'content_block_delta':
          if (event.delta?.type === 'text_delta' && event.delta.text) {
            sawText = true;
            yield { type: 'text-delta', text: event.delta.text };
          } else if (event.delta?.type === 'thinking_delta' && event.delta.thinking) {
            reasoning += event.delta.thinking;
            yield { type: 'reasoning-delta', text: event.delta.thinking };
          }
          break;
        case 'message_delta':
          if (event.delta?.stop_reason) finishReason = mapAnthropicStopReason(event.delta.stop_reason);
          if (event.usage) usage = { ...usage, ...Object.fromEntries(Object.entries(event.usage).filter(([, v]) => v != null)) };
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'error': {
          const type = event.error?.type ?? 'api_error';
          throw this.#error({ statusCode: statusOfErrorType[type] ?? 500, error: event.error ?? undefined, bodyText: sse.data, url: context.url, secrets: context.secrets });
        }
        default:
          break; // ping, content_block_start, content_block_stop
      }
      if (stopped) break;
    }
    if (!stopped) throw new Error('the stream ended before message_stop');
    if (!sawText) throw this.#empty(finishReason, reasoning, context.maxTokens);
    const finish: StreamPart = { type: 'finish', finishReason, usage: this.#usage(usage) };
    if (responseId) finish.responseId = responseId;
    if (responseModelId) finish.responseModelId = responseModelId;
    yield finish;
  }
}
