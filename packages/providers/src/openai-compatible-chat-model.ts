import * as z from 'zod';
import type { APICallError } from './api-call-error.js';
import { EmptyResponseError } from './empty-response-error.js';
import type {
  FinishReason,
  GenerateOptions,
  LanguageModelV1,
  ResponseFormat,
  StreamPart,
  Usage,
} from './language-model-v1.js';
import { parseSse } from './parse-sse.js';
import type { ProviderRuntime } from './provider-runtime.js';
import { parseErrorBody } from './parse-error-body.js';
import { finishPart, finishReasonOf, modelReply, PostedModel, requestError } from './post-model-request.js';
import type { ModelEndpoint, ModelRequest, RequestFailure } from './post-model-request.js';
import { parseJsonResponse } from './read-json-response.js';
import { endpointUrl, urlSecrets } from './url-credentials.js';
import type { ModelReply } from './run-model-call.js';
import { omitUndefined } from './internal/omit-undefined.js';

const errorObjectSchema = z.object({
  message: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
  type: z.string().nullish(),
});
const errorBodySchema = z.object({
  error: z.union([errorObjectSchema, z.string()]).nullish(),
  message: z.string().nullish(),
});

const usageSchema = z
  .object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
    /** OpenRouter: the call's cost in credits (US dollars). */
    cost: z.number().nullish(),
  })
  .nullish();

/** A choice's text: a reply's `message` and a stream chunk's `delta` carry the same fields. */
const choiceTextSchema = z
  .object({
    content: z.string().nullish(),
    reasoning: z.string().nullish(),
    reasoning_content: z.string().nullish(),
  })
  .nullish();
const choiceFields = { finish_reason: z.string().nullish(), error: errorObjectSchema.nullish() };

const responseSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  system_fingerprint: z.string().nullish(),
  choices: z.array(z.object({ message: choiceTextSchema, ...choiceFields })).nullish(),
  usage: usageSchema,
  error: errorObjectSchema.nullish(),
});

const chunkSchema = z.object({
  /** vLLM sends `{ object: 'error', message, code }` when a stream fails. */
  object: z.string().nullish(),
  message: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z.array(z.object({ delta: choiceTextSchema, ...choiceFields })).nullish(),
  usage: usageSchema,
  error: errorObjectSchema.nullish(),
});

/** How one OpenAI-compatible provider (OpenRouter, OpenAI, Ollama, …) is configured. */
export interface OpenAICompatibleChatConfig {
  provider: string;
  runtime: ProviderRuntime;
  /** Read at each request. */
  baseURL: () => string;
  /** Read at each request; throws when a required key is missing. */
  apiKey: () => string | undefined;
  /** Where the key comes from, for error messages, e.g. "OPENROUTER_API_KEY (or the apiKey setting)". */
  keyHint: string;
  headers: () => Record<string, string>;
  /** Body fields the provider adds to every request (before `providerOptions[provider]`). */
  extraBody?: (options: GenerateOptions) => Record<string, unknown>;
  /** Local servers: every call costs nothing. */
  zeroCost?: boolean;
  /** OpenAI's current models take `max_completion_tokens`; most compatible servers take `max_tokens` (the default). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** OpenAI-compatible finish_reason values (end_turn from some proxies), as the finish reason each means. */
const finishOfOpenAIReason: Record<string, FinishReason> = {
  stop: 'stop',
  end_turn: 'stop',
  length: 'length',
  content_filter: 'content-filter',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  error: 'error',
};

export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  return finishReasonOf(finishOfOpenAIReason, reason);
}

type ErrorObject = z.infer<typeof errorObjectSchema>;
type ChatResponse = z.infer<typeof responseSchema>;

/** OpenAI's structured-output field, which Ollama, vLLM, LM Studio, llama.cpp's server and OpenRouter take too. */
function responseFormatBody(format: ResponseFormat): Record<string, unknown> {
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      ...omitUndefined({ description: format.description }),
      schema: format.schema,
      strict: true,
    },
  };
}

/** A chat-completions model: `POST {baseURL}/chat/completions`, JSON or SSE. */
export class OpenAICompatibleChatModel extends PostedModel<ChatResponse> implements LanguageModelV1 {
  readonly provider: string;
  /** Sends `responseFormat` as `response_format: { type: 'json_schema', json_schema: { name, description?, schema, strict: true } }`. */
  readonly supportsStructuredOutput = true;
  readonly #config: OpenAICompatibleChatConfig;
  protected readonly endpoint: ModelEndpoint<ChatResponse>;

  constructor(modelId: string, config: OpenAICompatibleChatConfig) {
    super(modelId);
    this.provider = config.provider;
    this.#config = config;
    this.endpoint = {
      target: { runtime: config.runtime, provider: this.provider, modelId, baseURL: () => config.baseURL() },
      streamUrl: (baseURL) => endpointUrl(baseURL, 'chat/completions'),
      build: (options, stream) => this.#request(options, stream),
      mapError: (failure, request) => {
        const parsed = parseErrorBody(failure.bodyText, errorBodySchema);
        return this.#error({ ...failure, request, error: parsed?.error ?? parsed?.message ?? undefined });
      },
      // OpenRouter puts an error object in a 200 body, at the top or in the choice.
      replyError: (json, bodyText, request) => {
        const error = json.error ?? json.choices?.[0]?.error;
        return error ? this.#inBodyError({ error, bodyText, request }) : undefined;
      },
      replySchema: responseSchema,
      reply: (json, _request, options) => this.#reply(json, options),
      streamParts: (body, request, options) => this.#streamParts(body, { request, maxTokens: options.maxTokens }),
    };
  }

  #request(options: GenerateOptions, stream: boolean): ModelRequest {
    const config = this.#config;
    const key = config.apiKey();
    const url = endpointUrl(config.baseURL(), 'chat/completions');
    const body: Record<string, unknown> = {
      model: this.modelId,
      messages: options.messages.map((m) => ({ role: m.role, content: m.content })),
      ...omitUndefined({
        temperature: options.temperature,
        [config.maxTokensField ?? 'max_tokens']: options.maxTokens,
        seed: options.seed,
      }),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      ...(options.responseFormat === undefined ? {} : { response_format: responseFormatBody(options.responseFormat) }),
      ...config.extraBody?.(options),
      ...options.providerOptions?.[config.provider],
    };
    const headers = { ...config.headers(), ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) };
    return {
      url,
      headers,
      body,
      secrets: [...(key === undefined ? [] : [key]), ...urlSecrets(url)],
      structuredOutput: options.responseFormat !== undefined,
    };
  }

  #error(failure: RequestFailure<ErrorObject | string>): APICallError {
    const detail = typeof failure.error === 'string' ? failure.error : (failure.error?.message ?? undefined);
    const { provider, modelId } = this;
    return requestError({ provider, modelId, ...failure, detail, keyHint: this.#config.keyHint });
  }

  /** An error object that arrived inside a 200 body or a stream chunk (OpenRouter does both). */
  #inBodyError(options: { error: ErrorObject; bodyText: string; request: ModelRequest }): APICallError {
    const code =
      typeof options.error.code === 'number'
        ? options.error.code
        : Number.parseInt(String(options.error.code ?? ''), 10);
    return this.#error({
      statusCode: Number.isInteger(code) && code >= 400 && code < 600 ? code : 502,
      error: options.error,
      bodyText: options.bodyText,
      request: options.request,
    });
  }

  #usage(usage: z.infer<typeof usageSchema>): Usage {
    const result: Usage = { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
    const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
    const cached = usage?.prompt_tokens_details?.cached_tokens;
    if (reasoning != null) result.reasoningTokens = reasoning;
    if (cached != null) result.cachedTokens = cached;
    if (this.#config.zeroCost) result.costUsd = 0;
    else if (usage?.cost != null) result.costUsd = usage.cost;
    return result;
  }

  #emptyError(options: {
    finishReason: FinishReason;
    usage: Usage;
    reasoning: string;
    maxTokens: number | undefined;
  }): EmptyResponseError {
    const { provider, modelId } = this;
    if (options.finishReason === 'length' && ((options.usage.reasoningTokens ?? 0) > 0 || options.reasoning !== '')) {
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'reasoning-used-budget',
        message: `${modelId} spent its whole token budget${options.maxTokens === undefined ? '' : ` (maxTokens ${options.maxTokens})`} on reasoning (${options.usage.reasoningTokens ?? 'some'} reasoning tokens) and returned no answer. Raise maxTokens, or lower the reasoning effort (e.g. providerOptions.${provider}.reasoning = { effort: 'low' }).`,
      });
    }
    if (options.finishReason === 'content-filter') {
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'content-filter',
        message: `${provider} withheld the answer of ${modelId} (content filter). Rephrase the prompt or choose another model.`,
      });
    }
    return new EmptyResponseError({
      provider,
      modelId,
      reason: 'empty',
      message: `${modelId} returned an empty answer (finish reason: ${options.finishReason}). Retry, or choose another model.`,
    });
  }

  /** The answer of a JSON reply, or the EmptyResponseError that says why there is none. */
  #reply(json: ChatResponse, options: GenerateOptions): ModelReply {
    const choice = json.choices?.[0];
    const text = choice?.message?.content ?? '';
    const reasoning = choice?.message?.reasoning ?? choice?.message?.reasoning_content ?? '';
    const finishReason = mapOpenAIFinishReason(choice?.finish_reason);
    const usage = this.#usage(json.usage);
    if (text.trim() === '') throw this.#emptyError({ finishReason, usage, reasoning, maxTokens: options.maxTokens });
    const details = {
      reasoning,
      responseId: json.id,
      responseModelId: json.model,
      seed: options.seed,
      systemFingerprint: json.system_fingerprint,
    };
    return modelReply({ text, usage, finishReason }, details);
  }

  async *#streamParts(
    body: AsyncIterable<Uint8Array>,
    context: { request: ModelRequest; maxTokens: number | undefined },
  ): AsyncGenerator<StreamPart> {
    const { request } = context;
    const { secrets, url } = request;
    let finishReason: FinishReason = 'unknown';
    let usage: Usage = this.#usage(undefined);
    let sawText = false;
    let reasoning = '';
    let responseId: string | undefined;
    let responseModelId: string | undefined;
    let done = false;
    for await (const event of parseSse(body)) {
      if (event.data === '[DONE]') {
        done = true;
        break;
      }
      const chunk = parseJsonResponse({ text: event.data, schema: chunkSchema, url, provider: this.provider, secrets });
      const choice = chunk.choices?.[0];
      const error =
        chunk.error ??
        choice?.error ??
        (chunk.object === 'error' ? { message: chunk.message, code: chunk.code } : undefined);
      if (error) throw this.#inBodyError({ error, bodyText: event.data, request });
      if (chunk.id) responseId = chunk.id;
      if (chunk.model) responseModelId = chunk.model;
      const delta = choice?.delta;
      const thought = delta?.reasoning ?? delta?.reasoning_content;
      if (thought) {
        reasoning += thought;
        yield { type: 'reasoning-delta', text: thought };
      }
      if (delta?.content) {
        sawText = true;
        yield { type: 'text-delta', text: delta.content };
      }
      if (choice?.finish_reason) finishReason = mapOpenAIFinishReason(choice.finish_reason);
      if (chunk.usage) usage = this.#usage(chunk.usage);
    }
    if (!done && finishReason === 'unknown') {
      throw new Error('the stream ended without a finish reason or [DONE]');
    }
    if (!sawText) throw this.#emptyError({ finishReason, usage, reasoning, maxTokens: context.maxTokens });
    yield finishPart({ finishReason, usage, responseId, responseModelId });
  }
}
