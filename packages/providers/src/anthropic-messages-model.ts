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
  content: z
    .array(
      z.object({
        type: z.string(),
        text: z.string().nullish(),
        thinking: z.string().nullish(),
        name: z.string().nullish(),
        input: z.unknown().optional(),
      }),
    )
    .nullish(),
  stop_reason: z.string().nullish(),
  usage: usageSchema,
});

const eventSchema = z.object({
  type: z.string(),
  index: z.number().nullish(),
  message: z.object({ id: z.string().nullish(), model: z.string().nullish(), usage: usageSchema }).nullish(),
  content_block: z
    .object({ type: z.string().nullish(), name: z.string().nullish(), input: z.unknown().optional() })
    .nullish(),
  delta: z
    .object({
      type: z.string().nullish(),
      text: z.string().nullish(),
      thinking: z.string().nullish(),
      partial_json: z.string().nullish(),
      stop_reason: z.string().nullish(),
    })
    .nullish(),
  usage: usageSchema,
  error: errorSchema.nullish(),
});

/** JSON text as `JSON.stringify` writes it, or the text unchanged when it is not JSON (cut off mid-value). */
function normalisedJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

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

/** Anthropic's stop_reason values, as the finish reason each means. */
const finishOfStopReason: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  refusal: 'content-filter',
};

export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  return finishReasonOf(finishOfStopReason, reason);
}

/**
 * Structured output on the Messages API: one tool whose input schema is the reply's schema, and `tool_choice`
 * forcing it, so the answer is that tool's `input`.
 */
function structuredOutputBody(format: ResponseFormat): Record<string, unknown> {
  return {
    tools: [
      {
        name: format.name,
        ...omitUndefined({ description: format.description }),
        input_schema: format.schema,
      },
    ],
    tool_choice: { type: 'tool', name: format.name },
  };
}

/** A structured reply's text: the forced tool's input as JSON, or undefined when there is no such block. */
function toolInputText(
  content: ReadonlyArray<{ type: string; name?: string | null; input?: unknown }>,
  format: ResponseFormat,
): string | undefined {
  const block =
    content.find((c) => c.type === 'tool_use' && c.name === format.name) ?? content.find((c) => c.type === 'tool_use');
  return block === undefined || block.input === undefined ? undefined : JSON.stringify(block.input);
}

/**
 * The finish reason of a call: a structured reply ends with `stop_reason: tool_use` because its answer is the
 * forced tool's input, which is a complete answer (`stop`), not a request to run a tool.
 */
function finishOf(stopReason: string | null | undefined, options: GenerateOptions): FinishReason {
  return options.responseFormat !== undefined && stopReason === 'tool_use'
    ? 'stop'
    : mapAnthropicStopReason(stopReason);
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
export class AnthropicMessagesModel extends PostedModel<z.infer<typeof responseSchema>> implements LanguageModelV1 {
  readonly provider = 'anthropic';
  /** Sends `responseFormat` as one tool (`input_schema`) forced by `tool_choice`; the answer is its input as JSON. */
  readonly supportsStructuredOutput = true;
  readonly #config: AnthropicMessagesConfig;
  protected readonly endpoint: ModelEndpoint<z.infer<typeof responseSchema>>;

  constructor(modelId: string, config: AnthropicMessagesConfig) {
    super(modelId);
    this.#config = config;
    this.endpoint = {
      target: { runtime: config.runtime, provider: this.provider, modelId, baseURL: () => config.baseURL() },
      streamUrl: (baseURL) => endpointUrl(baseURL, 'messages'),
      build: (options, stream) => this.#request(options, stream),
      mapError: (failure, request) =>
        this.#error({
          ...failure,
          request,
          error: parseErrorBody(failure.bodyText, errorBodySchema)?.error ?? undefined,
        }),
      // No error object comes inside a 2xx reply of the Messages API (a stream's `error` event is read with the stream).
      replySchema: responseSchema,
      reply: (json, request, options) =>
        this.#reply(json, { call: options, maxTokens: request.body.max_tokens as number }),
      streamParts: (body, request, options) => this.#streamParts(body, { request, call: options }),
    };
  }

  #request(options: GenerateOptions, stream: boolean): ModelRequest {
    const key = this.#config.apiKey();
    const system = options.messages.filter((m) => m.role === 'system').map((m) => m.content);
    const body: Record<string, unknown> = {
      model: this.modelId,
      max_tokens: options.maxTokens ?? this.#config.defaultMaxTokens,
      ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
      messages: options.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content })),
      ...omitUndefined({ temperature: options.temperature }),
      ...(stream ? { stream: true } : {}),
      ...(options.responseFormat === undefined ? {} : structuredOutputBody(options.responseFormat)),
      ...options.providerOptions?.anthropic,
    };
    const url = endpointUrl(this.#config.baseURL(), 'messages');
    return {
      url,
      headers: { 'anthropic-version': '2023-06-01', ...this.#config.headers(), 'x-api-key': key },
      body,
      secrets: [key, ...urlSecrets(url)],
      structuredOutput: options.responseFormat !== undefined,
    };
  }

  #error(failure: RequestFailure<z.infer<typeof errorSchema>>): APICallError {
    const detail = failure.error?.message ?? failure.error?.type ?? undefined;
    const { provider, modelId } = this;
    return requestError({
      provider,
      modelId,
      ...failure,
      detail,
      keyHint: 'ANTHROPIC_API_KEY (or the apiKey setting)',
    });
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
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'reasoning-used-budget',
        message: `${modelId} spent its whole token budget (max_tokens ${maxTokens}) thinking and returned no answer. Raise maxTokens above the thinking budget_tokens, or lower budget_tokens.`,
      });
    }
    if (finishReason === 'content-filter')
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'content-filter',
        message: `${modelId} refused to answer (stop_reason refusal). Rephrase the prompt or choose another model.`,
      });
    return new EmptyResponseError({
      provider,
      modelId,
      reason: 'empty',
      message: `${modelId} returned an empty answer (finish reason: ${finishReason}). Retry, or choose another model.`,
    });
  }

  /** The answer of a JSON reply (a structured one: the forced tool's input), or the EmptyResponseError saying why there is none. */
  #reply(json: z.infer<typeof responseSchema>, options: { call: GenerateOptions; maxTokens: number }): ModelReply {
    const content = json.content ?? [];
    const format = options.call.responseFormat;
    const plain = content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('');
    const text = (format === undefined ? undefined : toolInputText(content, format)) ?? plain;
    const reasoning = content
      .filter((c) => c.type === 'thinking')
      .map((c) => c.thinking ?? '')
      .join('');
    const finishReason = finishOf(json.stop_reason, options.call);
    if (text.trim() === '') throw this.#empty(finishReason, reasoning, options.maxTokens);
    return modelReply(
      { text, usage: this.#usage(json.usage), finishReason },
      { reasoning, responseId: json.id, responseModelId: json.model },
    );
  }

  /**
   * The stream's parts. With `responseFormat` the answer is the forced tool's input: its `input_json_delta`
   * pieces are gathered and, when the block ends, yielded as one text-delta — the JSON re-serialised as
   * `JSON.stringify` writes it (as `doGenerate` gives it), or as sent when it does not parse (a reply cut off by
   * `max_tokens`). Text blocks are then held back and yielded only when no tool input came.
   */
  async *#streamParts(
    body: AsyncIterable<Uint8Array>,
    context: { request: ModelRequest; call: GenerateOptions },
  ): AsyncGenerator<StreamPart> {
    const { request } = context;
    const url = request.url;
    const maxTokens = request.body.max_tokens as number;
    const structured = context.call.responseFormat !== undefined;
    let toolIndex: number | undefined;
    let toolJson = '';
    let toolStartInput: unknown;
    let toolText: string | undefined;
    let heldText = '';
    let usage: z.infer<typeof usageSchema> = {};
    let finishReason: FinishReason = 'unknown';
    let responseId: string | undefined;
    let responseModelId: string | undefined;
    let sawText = false;
    let reasoning = '';
    let stopped = false;
    const toolInput = (): string => {
      const text = toolJson === '' ? JSON.stringify(toolStartInput ?? {}) : normalisedJson(toolJson);
      sawText = text.trim() !== '';
      return text;
    };
    for await (const sse of parseSse(body)) {
      const event = parseJsonResponse({
        text: sse.data,
        schema: eventSchema,
        url,
        provider: this.provider,
        secrets: request.secrets,
      });
      switch (event.type) {
        case 'message_start':
          responseId = event.message?.id ?? undefined;
          responseModelId = event.message?.model ?? undefined;
          usage = { ...event.message?.usage };
          break;
        case 'content_block_start':
          if (structured && event.content_block?.type === 'tool_use' && toolIndex === undefined) {
            toolIndex = event.index ?? 0;
            // The block's own input ({} when it streams); the input_json_delta pieces that follow replace it.
            toolStartInput = event.content_block.input;
          }
          break;
        case 'content_block_stop':
          if (toolIndex !== undefined && (event.index ?? 0) === toolIndex && toolText === undefined) {
            toolText = toolInput();
            yield { type: 'text-delta', text: toolText };
          }
          break;
        case 'content_block_delta':
          if (event.delta?.type === 'input_json_delta' && toolIndex !== undefined && (event.index ?? 0) === toolIndex) {
            toolJson += event.delta.partial_json ?? '';
          } else if (event.delta?.type === 'text_delta' && event.delta.text) {
            if (structured) heldText += event.delta.text;
            else {
              sawText = true;
              yield { type: 'text-delta', text: event.delta.text };
            }
          } else if (event.delta?.type === 'thinking_delta' && event.delta.thinking) {
            reasoning += event.delta.thinking;
            yield { type: 'reasoning-delta', text: event.delta.thinking };
          }
          break;
        case 'message_delta':
          if (event.delta?.stop_reason) finishReason = finishOf(event.delta.stop_reason, context.call);
          if (event.usage)
            usage = { ...usage, ...Object.fromEntries(Object.entries(event.usage).filter(([, v]) => v != null)) };
          break;
        case 'message_stop':
          stopped = true;
          break;
        case 'error': {
          const type = event.error?.type ?? 'api_error';
          throw this.#error({
            statusCode: statusOfErrorType[type] ?? 500,
            error: event.error ?? undefined,
            bodyText: sse.data,
            request,
          });
        }
        default:
          break; // ping
      }
      if (stopped) break;
    }
    if (!stopped) throw new Error('the stream ended before message_stop');
    // A tool block the stream never closed still holds the answer.
    if (toolIndex !== undefined && toolText === undefined) {
      toolText = toolInput();
      yield { type: 'text-delta', text: toolText };
    }
    if (toolText === undefined && heldText !== '') {
      sawText = heldText.trim() !== '';
      yield { type: 'text-delta', text: heldText };
    }
    if (!sawText) throw this.#empty(finishReason, reasoning, maxTokens);
    yield finishPart({ finishReason, usage: this.#usage(usage), responseId, responseModelId });
  }
}
