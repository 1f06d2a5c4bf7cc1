import * as z from 'zod';
import type { APICallError } from './api-call-error.js';
import { EmptyResponseError } from './empty-response-error.js';
import type { FinishReason, GenerateOptions, LanguageModelV1, StreamPart, Usage } from './language-model-v1.js';
import { parseSse } from './parse-sse.js';
import type { ProviderRuntime } from './provider-runtime.js';
import { parseErrorBody } from './parse-error-body.js';
import { finishPart, finishReasonOf, modelReply, PostedModel, requestError } from './post-model-request.js';
import type { ModelEndpoint, ModelRequest, RequestFailure } from './post-model-request.js';
import { parseJsonResponse } from './read-json-response.js';
import { endpointUrl, urlSecrets } from './url-credentials.js';
import { toGeminiSchema } from './gemini-schema.js';
import type { ModelReply } from './run-model-call.js';
import { omitUndefined } from './internal/omit-undefined.js';

const errorSchema = z.object({
  code: z.number().nullish(),
  message: z.string().nullish(),
  status: z.string().nullish(),
});
const errorBodySchema = z.object({ error: errorSchema.nullish() });

const responseSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z
          .object({
            parts: z.array(z.object({ text: z.string().nullish(), thought: z.boolean().nullish() })).nullish(),
          })
          .nullish(),
        finishReason: z.string().nullish(),
      }),
    )
    .nullish(),
  usageMetadata: z
    .object({
      promptTokenCount: z.number().nullish(),
      candidatesTokenCount: z.number().nullish(),
      thoughtsTokenCount: z.number().nullish(),
      cachedContentTokenCount: z.number().nullish(),
    })
    .nullish(),
  promptFeedback: z.object({ blockReason: z.string().nullish() }).nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
  error: errorSchema.nullish(),
});

type GeminiResponse = z.infer<typeof responseSchema>;

/** Gemini's finishReason values, as the finish reason each means. */
const finishOfGeminiReason: Record<string, FinishReason> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
  IMAGE_SAFETY: 'content-filter',
  MALFORMED_FUNCTION_CALL: 'error',
};

export function mapGeminiFinishReason(reason: string | null | undefined): FinishReason {
  return finishReasonOf(finishOfGeminiReason, reason);
}

export interface GeminiConfig {
  runtime: ProviderRuntime;
  baseURL: () => string;
  apiKey: () => string;
  headers: () => Record<string, string>;
}

/** A Gemini model behind `generateContent` / `streamGenerateContent?alt=sse`. The key goes in a header, never the URL. */
export class GeminiModel extends PostedModel<GeminiResponse> implements LanguageModelV1 {
  readonly provider = 'gemini';
  /** Sends `responseFormat` as `generationConfig.responseMimeType: 'application/json'` and `responseSchema` (see `toGeminiSchema`). */
  readonly supportsStructuredOutput = true;
  readonly #config: GeminiConfig;
  protected readonly endpoint: ModelEndpoint<GeminiResponse>;

  constructor(modelId: string, config: GeminiConfig) {
    super(modelId.replace(/^models\//, ''));
    this.#config = config;
    this.endpoint = {
      target: {
        runtime: config.runtime,
        provider: this.provider,
        modelId: this.modelId,
        baseURL: () => config.baseURL(),
      },
      streamUrl: (baseURL) => this.#url(baseURL, true),
      build: (options, stream) => this.#request(options, stream),
      mapError: (failure, request) =>
        this.#error({
          ...failure,
          request,
          error: parseErrorBody(failure.bodyText, errorBodySchema)?.error ?? undefined,
        }),
      replyError: (json, bodyText, request) =>
        json.error ? this.#inBodyError({ error: json.error, bodyText, request }) : undefined,
      replySchema: responseSchema,
      reply: (json, _request, options) => this.#reply(json, options),
      streamParts: (body, request, options) => this.#streamParts(body, { request, maxTokens: options.maxTokens }),
    };
  }

  #url(baseURL: string, stream: boolean): string {
    return endpointUrl(
      baseURL,
      `models/${encodeURIComponent(this.modelId)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    );
  }

  #request(options: GenerateOptions, stream: boolean): ModelRequest {
    const key = this.#config.apiKey();
    const system = options.messages.filter((m) => m.role === 'system').map((m) => ({ text: m.content }));
    const extra = { ...options.providerOptions?.gemini };
    const extraConfig = (extra.generationConfig ?? {}) as Record<string, unknown>;
    delete extra.generationConfig;
    const generationConfig = {
      ...omitUndefined({ temperature: options.temperature, maxOutputTokens: options.maxTokens, seed: options.seed }),
      ...(options.responseFormat === undefined
        ? {}
        : { responseMimeType: 'application/json', responseSchema: toGeminiSchema(options.responseFormat.schema) }),
      ...extraConfig,
    };
    const body: Record<string, unknown> = {
      contents: options.messages
        .filter((m) => m.role !== 'system')
        .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] })),
      ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}),
      ...(Object.keys(generationConfig).length > 0 ? { generationConfig } : {}),
      ...extra,
    };
    const url = this.#url(this.#config.baseURL(), stream);
    return {
      url,
      headers: { ...this.#config.headers(), 'x-goog-api-key': key },
      body,
      secrets: [key, ...urlSecrets(url)],
      structuredOutput: options.responseFormat !== undefined,
    };
  }

  #error(failure: RequestFailure<z.infer<typeof errorSchema>>): APICallError {
    const detail = failure.error?.message ?? failure.error?.status ?? undefined;
    // Gemini answers a wrong key with 400 INVALID_ARGUMENT "API key not valid": an authentication failure.
    const badKey =
      failure.statusCode === 400 &&
      /api[ _]?key/i.test(`${detail ?? ''} ${failure.bodyText}`) &&
      /invalid|not valid|API_KEY_INVALID/i.test(failure.bodyText);
    const { provider, modelId } = this;
    return requestError({
      provider,
      modelId,
      ...failure,
      statusCode: badKey ? 401 : failure.statusCode,
      detail,
      keyHint: 'GEMINI_API_KEY or GOOGLE_API_KEY (or the apiKey setting)',
    });
  }

  #usage(meta: GeminiResponse['usageMetadata']): Usage {
    const thoughts = meta?.thoughtsTokenCount ?? undefined;
    // candidatesTokenCount leaves out thinking; outputTokens counts both, as billed.
    const result: Usage = {
      inputTokens: meta?.promptTokenCount ?? 0,
      outputTokens: (meta?.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    };
    if (thoughts !== undefined) result.reasoningTokens = thoughts;
    if (meta?.cachedContentTokenCount != null) result.cachedTokens = meta.cachedContentTokenCount;
    return result;
  }

  #empty(options: {
    finishReason: FinishReason;
    usage: Usage;
    reasoning: string;
    blockReason: string | undefined;
    maxTokens: number | undefined;
  }): EmptyResponseError {
    const { provider, modelId } = this;
    if (options.blockReason)
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'content-filter',
        message: `Gemini blocked the prompt for ${modelId} (blockReason ${options.blockReason}). Rephrase the prompt or adjust safetySettings.`,
      });
    if (options.finishReason === 'length' && ((options.usage.reasoningTokens ?? 0) > 0 || options.reasoning !== '')) {
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'reasoning-used-budget',
        message: `${modelId} spent its whole token budget${options.maxTokens === undefined ? '' : ` (maxTokens ${options.maxTokens})`} thinking (${options.usage.reasoningTokens ?? 'some'} thought tokens) and returned no answer. Raise maxTokens, or lower generationConfig.thinkingConfig.thinkingBudget.`,
      });
    }
    if (options.finishReason === 'content-filter')
      return new EmptyResponseError({
        provider,
        modelId,
        reason: 'content-filter',
        message: `Gemini withheld the answer of ${modelId} (safety filter). Rephrase the prompt or choose another model.`,
      });
    return new EmptyResponseError({
      provider,
      modelId,
      reason: 'empty',
      message: `${modelId} returned an empty answer (finish reason: ${options.finishReason}). Retry, or choose another model.`,
    });
  }

  #inBodyError(options: { error: z.infer<typeof errorSchema>; bodyText: string; request: ModelRequest }): APICallError {
    const code = options.error.code ?? 500;
    return this.#error({
      statusCode: code >= 400 && code < 600 ? code : 500,
      error: options.error,
      bodyText: options.bodyText,
      request: options.request,
    });
  }

  static #parts(response: GeminiResponse): { text: string; reasoning: string } {
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    return {
      text: parts
        .filter((p) => !p.thought)
        .map((p) => p.text ?? '')
        .join(''),
      reasoning: parts
        .filter((p) => p.thought)
        .map((p) => p.text ?? '')
        .join(''),
    };
  }

  /** The answer of a JSON reply, or the EmptyResponseError that says why there is none. */
  #reply(json: GeminiResponse, options: GenerateOptions): ModelReply {
    const { text, reasoning } = GeminiModel.#parts(json);
    const finishReason = mapGeminiFinishReason(json.candidates?.[0]?.finishReason);
    const usage = this.#usage(json.usageMetadata);
    if (text.trim() === '')
      throw this.#empty({
        finishReason,
        usage,
        reasoning,
        blockReason: json.promptFeedback?.blockReason ?? undefined,
        maxTokens: options.maxTokens,
      });
    return modelReply(
      { text, usage, finishReason },
      { reasoning, responseId: json.responseId, responseModelId: json.modelVersion, seed: options.seed },
    );
  }

  async *#streamParts(
    body: AsyncIterable<Uint8Array>,
    context: { request: ModelRequest; maxTokens: number | undefined },
  ): AsyncGenerator<StreamPart> {
    const { request } = context;
    let finishReason: FinishReason = 'unknown';
    let usage: Usage = this.#usage(undefined);
    let responseId: string | undefined;
    let responseModelId: string | undefined;
    let blockReason: string | undefined;
    let sawText = false;
    let reasoning = '';
    for await (const sse of parseSse(body)) {
      const chunk = parseJsonResponse({
        text: sse.data,
        schema: responseSchema,
        url: request.url,
        provider: this.provider,
        secrets: request.secrets,
      });
      if (chunk.error) throw this.#inBodyError({ error: chunk.error, bodyText: sse.data, request });
      const { text, reasoning: thought } = GeminiModel.#parts(chunk);
      if (thought) {
        reasoning += thought;
        yield { type: 'reasoning-delta', text: thought };
      }
      if (text) {
        sawText = true;
        yield { type: 'text-delta', text };
      }
      if (chunk.candidates?.[0]?.finishReason) finishReason = mapGeminiFinishReason(chunk.candidates[0].finishReason);
      if (chunk.usageMetadata) usage = this.#usage(chunk.usageMetadata);
      if (chunk.responseId) responseId = chunk.responseId;
      if (chunk.modelVersion) responseModelId = chunk.modelVersion;
      if (chunk.promptFeedback?.blockReason) blockReason = chunk.promptFeedback.blockReason;
    }
    if (finishReason === 'unknown' && !blockReason) throw new Error('the stream ended without a finishReason');
    if (!sawText) throw this.#empty({ finishReason, usage, reasoning, blockReason, maxTokens: context.maxTokens });
    yield finishPart({ finishReason, usage, responseId, responseModelId });
  }
}
