import type * as z from 'zod';
import type { APICallError } from './api-call-error.js';
import type { CallScope } from './call-scope.js';
import { createApiError } from './create-api-error.js';
import type { FinishReason, GenerateOptions, GenerateResult, StreamPart, Usage } from './language-model-v1.js';
import type { ProviderRuntime } from './provider-runtime.js';
import { parseJsonResponse } from './read-json-response.js';
import { readLimitedText } from './read-limited-body.js';
import { errorBodyExcerpt, redactSecrets } from './redact-secrets.js';
import { openStream, runGenerateCall, runStreamCall } from './run-model-call.js';
import type { ModelReply } from './run-model-call.js';
import { sendRequest } from './send-request.js';
import type { HttpFailure } from './send-request.js';
import { omitUndefined } from './internal/omit-undefined.js';

/** One HTTP request to a model, as a provider client builds it. */
export interface ModelRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The key and any URL credentials: redacted from every message and excerpt. */
  secrets: string[];
  /** The request asks for structured output: a refusal of it becomes StructuredOutputUnsupportedError. */
  structuredOutput: boolean;
}

/**
 * What one HTTP provider client is made of: everything else of a call (the concurrency slot, the deadline,
 * retries, the size limit, a stream answered with a whole JSON reply) is the same for all and lives here.
 */
export interface ModelEndpoint<Json> {
  /** Who is called, and where: `baseURL` is read once per call, before it waits for a slot. */
  target: { runtime: ProviderRuntime; provider: string; modelId: string; baseURL: () => string };
  /** The stream request's URL, for messages about a stream that fails before or after it opens. */
  streamUrl: (baseURL: string) => string;
  /** Builds the request (reading the key) once the call has its slot. */
  build: (options: GenerateOptions, stream: boolean) => ModelRequest;
  /** The typed error for a non-2xx response. */
  mapError: (failure: HttpFailure, request: ModelRequest) => APICallError;
  /** The shape of a 2xx JSON reply. */
  replySchema: z.ZodType<Json>;
  /** An error object inside a 2xx JSON reply, as the error to throw; undefined when there is none. */
  replyError?: (json: Json, bodyText: string, request: ModelRequest) => APICallError | undefined;
  /** The answer of a JSON reply, or the EmptyResponseError saying why there is none. */
  reply: (json: Json, request: ModelRequest, options: GenerateOptions) => ModelReply;
  /** An event stream's body as stream parts. */
  streamParts: (
    body: AsyncIterable<Uint8Array>,
    request: ModelRequest,
    options: GenerateOptions,
  ) => AsyncIterable<StreamPart>;
}

/** Reads a 2xx JSON reply: the body (within the size limit), its shape, and an error object inside it. */
async function readReply<Json>(
  endpoint: ModelEndpoint<Json>,
  response: Response,
  request: ModelRequest,
): Promise<Json> {
  const { provider, modelId, runtime } = endpoint.target;
  const text = await readLimitedText(response, {
    provider,
    modelId,
    limitBytes: runtime.maxResponseBytes,
    overflow: 'throw',
  });
  const json = parseJsonResponse({
    text,
    schema: endpoint.replySchema,
    url: request.url,
    provider,
    secrets: request.secrets,
  });
  const error = endpoint.replyError?.(json, text, request);
  if (error) throw error;
  return json;
}

/** POSTs a request with retries; `read` reads the 2xx response. */
function post<Json, T>(
  endpoint: ModelEndpoint<Json>,
  sending: { scope: CallScope; request: ModelRequest; read: (response: Response) => Promise<T> },
): Promise<T> {
  const { runtime, provider, modelId } = endpoint.target;
  const { scope, request, read } = sending;
  const { url, headers, body } = request;
  return sendRequest({
    runtime,
    scope,
    provider,
    modelId,
    url,
    headers,
    body,
    mapError: (failure) => endpoint.mapError(failure, request),
    read,
  });
}

/** One non-streaming call: the request, its JSON reply and the answer in it, with the call's latency. */
export async function generateByPost<Json>(
  endpoint: ModelEndpoint<Json>,
  options: GenerateOptions,
): Promise<GenerateResult> {
  const { runtime, provider, modelId } = endpoint.target;
  return await runGenerateCall(
    { runtime, provider, modelId, baseURL: endpoint.target.baseURL(), options },
    async (scope) => {
      const request = endpoint.build(options, false);
      const json = await post(endpoint, { scope, request, read: (response) => readReply(endpoint, response, request) });
      return { ...endpoint.reply(json, request, options), latencyMs: runtime.clock.now() - scope.startedAt };
    },
  );
}

/** One streaming call: the request, then its event stream's parts (or a whole JSON reply, as parts). */
export function streamByPost<Json>(endpoint: ModelEndpoint<Json>, options: GenerateOptions): AsyncIterable<StreamPart> {
  const { runtime, provider, modelId } = endpoint.target;
  const baseURL = endpoint.target.baseURL();
  let request: ModelRequest | undefined;
  return runStreamCall(
    { runtime, provider, modelId, baseURL, options, url: endpoint.streamUrl(baseURL) },
    {
      start: (scope) => {
        const sent = endpoint.build(options, true);
        request = sent;
        const read = (response: Response) =>
          openStream(response, async (reply) => endpoint.reply(await readReply(endpoint, reply, sent), sent, options));
        return post(endpoint, { scope, request: sent, read });
      },
      parts: (body) => endpoint.streamParts(body, request!, options),
    },
  );
}

/** A failed request as a client's error mapping reads it: the status, the vendor's error object (if any), the body. */
export interface RequestFailure<VendorError> {
  statusCode: number;
  error: VendorError | undefined;
  bodyText: string;
  request: ModelRequest;
  retryAfterMs?: number | undefined;
}

/**
 * The typed error for a failed request: the provider's own message (`detail`, redacted and cut to 500
 * characters) and an excerpt of the body, redacted.
 */
export function requestError(options: {
  provider: string;
  modelId: string;
  request: Pick<ModelRequest, 'url' | 'secrets' | 'structuredOutput'>;
  statusCode: number;
  detail: string | null | undefined;
  bodyText: string;
  keyHint: string;
  retryAfterMs?: number | undefined;
}): APICallError {
  const { url, secrets, structuredOutput } = options.request;
  return createApiError({
    provider: options.provider,
    modelId: options.modelId,
    url,
    statusCode: options.statusCode,
    detail: options.detail == null ? undefined : redactSecrets(options.detail, secrets).slice(0, 500),
    responseBody: errorBodyExcerpt(options.bodyText, secrets),
    keyHint: options.keyHint,
    structuredOutput,
    ...omitUndefined({ retryAfterMs: options.retryAfterMs }),
  });
}

/** What a reply says beside its text, as the vendor names it; empty values (`''`, null) are left out of the answer. */
export interface ReplyDetails {
  reasoning?: string;
  responseId?: string | null | undefined;
  responseModelId?: string | null | undefined;
  seed?: number | undefined;
  systemFingerprint?: string | null | undefined;
}

/** One whole answer: its text, usage and finish reason, and each detail that is not empty. */
export function modelReply(
  answer: Pick<ModelReply, 'text' | 'usage' | 'finishReason'>,
  details: ReplyDetails,
): ModelReply {
  const out: ModelReply = { text: answer.text, usage: answer.usage, finishReason: answer.finishReason };
  if (details.reasoning !== undefined && details.reasoning !== '') out.reasoning = details.reasoning;
  if (details.responseId) out.responseId = details.responseId;
  if (details.responseModelId) out.responseModelId = details.responseModelId;
  if (details.seed !== undefined) out.seed = details.seed;
  if (details.systemFingerprint) out.systemFingerprint = details.systemFingerprint;
  return out;
}

/** A stream's last part: the finish reason and usage, and the response's id and model when they came. */
export function finishPart(finish: {
  finishReason: FinishReason;
  usage: Usage;
  responseId: string | undefined;
  responseModelId: string | undefined;
}): StreamPart {
  const part: StreamPart = { type: 'finish', finishReason: finish.finishReason, usage: finish.usage };
  if (finish.responseId) part.responseId = finish.responseId;
  if (finish.responseModelId) part.responseModelId = finish.responseModelId;
  return part;
}

/**
 * A model behind one HTTP endpoint: `doGenerate` and `doStream` run its `endpoint` through `generateByPost` and
 * `streamByPost`, so a client is only what is its own (the request body, the reply's shape, the stream's events).
 */
export abstract class PostedModel<Json> {
  readonly specificationVersion = 'v1' as const;
  abstract readonly provider: string;
  readonly modelId: string;
  protected abstract readonly endpoint: ModelEndpoint<Json>;

  constructor(modelId: string) {
    this.modelId = modelId;
  }

  doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    return generateByPost(this.endpoint, options);
  }

  doStream(options: GenerateOptions): AsyncIterable<StreamPart> {
    return streamByPost(this.endpoint, options);
  }
}

/** A vendor's finish reason by its table: absent (null, undefined) is `unknown`, a name the table lacks is `other`. */
export function finishReasonOf(
  table: Readonly<Record<string, FinishReason>>,
  reason: string | null | undefined,
): FinishReason {
  if (reason == null) return 'unknown';
  return Object.hasOwn(table, reason) ? (table[reason] as FinishReason) : 'other';
}
