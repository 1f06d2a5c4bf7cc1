// TEST FIXTURE, not a product: a small real language model (one GGUF file run by llama.cpp through node-llama-cpp)
// behind an OpenAI-compatible HTTP API on 127.0.0.1, so that tests and `pnpm smoke:real` can send Council's real
// requests to a real model. It imitates the parts of llama.cpp's server (`llama-server -np 1`) that Council relies
// on: chat completions through the model's chat template, JSON-schema output constrained by a grammar, streaming,
// one slot with a FIFO queue, llama.cpp's context-size error. Every request starts from an empty context.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { LlamaChat, LlamaLogLevel, getLlama } from 'node-llama-cpp';
import type {
  ChatHistoryItem,
  ChatWrapper,
  Llama,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
} from 'node-llama-cpp';
import { toGrammarSchema } from './grammar-schema.js';
import { OneSlot } from './one-slot.js';

export interface RealModelServerOptions {
  /** The GGUF file (see scripts/ensure-real-model.mjs). */
  modelPath: string;
  /** Inference threads (default 1: on a loaded 2-core machine one thread generates faster than two). */
  threads?: number;
  /** Context size in tokens (default 8192, or the model's training context if smaller). */
  contextSize?: number;
  /** The most tokens one reply may generate, whatever the request asks (llama.cpp's n_predict; default 512). */
  maxTokensCap?: number;
  /** Answer `stream: true` requests with one plain JSON reply, as some proxies do (default false). */
  ignoreStream?: boolean;
  /**
   * Flash attention (default true, as llama.cpp's server's `auto` picks on CPU): evaluating a 2,000-token prompt is
   * about a quarter faster with it here.
   */
  flashAttention?: boolean;
  /** Port on 127.0.0.1 (default 0: a free one). */
  port?: number;
}

/** What one request cost; times in milliseconds (performance.now differences). */
export interface RealModelRequestStats {
  id: string;
  /** The model id the request named (any id is served by the one model). */
  model: string;
  stream: boolean;
  responseFormat: 'text' | 'json_schema' | 'json_object';
  /** From the request's arrival (its body read) to its generation starting. */
  queueWaitMs: number;
  promptTokens: number;
  /** From the generation's start to the first generated token: the prompt's evaluation plus one token. */
  prefillMs: number;
  generatedTokens: number;
  /** From the first generated token to the last. */
  generationMs: number;
  finishReason: 'stop' | 'length' | 'aborted' | 'error';
  /**
   * Positions in one counter of the server's events, to compare the order of requests without clocks: joining the
   * queue (after the request was read and checked), the generation's start, the reply's end.
   */
  order: { queued: number; started: number; finished: number };
}

export interface RealModelServer {
  /** The OpenAI-compatible base URL, `http://127.0.0.1:<port>/v1` (for LLAMACPP_BASE_URL). */
  readonly baseURL: string;
  readonly port: number;
  readonly modelPath: string;
  readonly contextSize: number;
  /** Finished requests, in the order they finished. */
  stats(): RealModelRequestStats[];
  close(): Promise<void>;
}

interface ChatRequest {
  model: string;
  history: ChatHistoryItem[];
  maxTokens: number | undefined;
  temperature: number;
  topP: number | undefined;
  seed: number | undefined;
  stop: string[];
  stream: boolean;
  includeUsage: boolean;
  responseFormat: RealModelRequestStats['responseFormat'];
  schema: Record<string, unknown> | undefined;
}

class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  /** More fields of the error body, as llama.cpp adds (n_prompt_tokens, n_ctx). */
  readonly extra: Record<string, unknown>;
  constructor(status: number, type: string, details: { message: string; extra?: Record<string, unknown> }) {
    super(details.message);
    this.status = status;
    this.type = type;
    this.extra = details.extra ?? {};
  }
}

const maxBodyBytes = 8 * 1024 * 1024;
// llama.cpp's server defaults where a request leaves them out.
const defaultTemperature = 0.8;
const defaultTopK = 40;
const defaultTopP = 0.95;
const defaultMinP = 0.05;

let llamaPromise: Promise<Llama> | undefined;
/** One llama.cpp binding per process, CPU only, never built (the prebuilt linux-x64 binary of the npm package). */
function loadLlama(): Promise<Llama> {
  llamaPromise ??= getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  return llamaPromise;
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'invalid_request_error', { message });
}

function messageText(content: unknown, where: string): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown, i) => {
        const p = part as { type?: unknown; text?: unknown };
        if (p?.type !== 'text' || typeof p.text !== 'string')
          throw invalid(`${where}.content[${i}]: only text parts are supported`);
        return p.text;
      })
      .join('');
  }
  throw invalid(`${where}.content must be a string or a list of text parts`);
}

function toHistory(messages: unknown): ChatHistoryItem[] {
  if (!Array.isArray(messages) || messages.length === 0) throw invalid("'messages' must be a non-empty array");
  const history: ChatHistoryItem[] = messages.map((message: unknown, i): ChatHistoryItem => {
    const m = message as { role?: unknown; content?: unknown };
    const text = messageText(m?.content, `messages[${i}]`);
    switch (m?.role) {
      case 'system':
      case 'developer':
        return { type: 'system', text };
      case 'user':
        return { type: 'user', text };
      case 'assistant':
        return { type: 'model', response: [text] };
      default:
        throw invalid(`messages[${i}].role must be system, user or assistant`);
    }
  });
  // The reply to generate: the chat template's assistant turn, opened and empty.
  history.push({ type: 'model', response: [] });
  return history;
}

function optionalNumber(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`'${key}' must be a number`);
  return value;
}

function parseRequest(body: unknown): ChatRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('the request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const maxTokens = optionalNumber(b, 'max_completion_tokens') ?? optionalNumber(b, 'max_tokens');
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1))
    throw invalid("'max_tokens' must be a positive integer");
  const stop = b.stop === undefined || b.stop === null ? [] : typeof b.stop === 'string' ? [b.stop] : b.stop;
  if (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string'))
    throw invalid("'stop' must be a string or a list of strings");
  const streamOptions = b.stream_options as { include_usage?: unknown } | undefined;
  let responseFormat: ChatRequest['responseFormat'] = 'text';
  let schema: Record<string, unknown> | undefined;
  const format = b.response_format as
    { type?: unknown; json_schema?: { schema?: unknown }; schema?: unknown } | undefined | null;
  if (format !== undefined && format !== null) {
    if (format.type === 'json_schema') {
      responseFormat = 'json_schema';
      const result = toGrammarSchema(format.json_schema?.schema);
      if (!result.success)
        throw invalid(`response_format.json_schema.schema cannot be turned into a grammar: ${result.error}`);
      schema = result.value;
    } else if (format.type === 'json_object') {
      responseFormat = 'json_object';
      // llama.cpp's extension: json_object may carry a schema.
      if (format.schema !== undefined) {
        const result = toGrammarSchema(format.schema);
        if (!result.success) throw invalid(`response_format.schema cannot be turned into a grammar: ${result.error}`);
        schema = result.value;
      }
    } else if (format.type !== 'text') {
      throw invalid(
        `response_format.type must be text, json_object or json_schema, not ${JSON.stringify(format.type)}`,
      );
    }
  }
  return {
    model: typeof b.model === 'string' ? b.model : '',
    history: toHistory(b.messages),
    maxTokens,
    temperature: optionalNumber(b, 'temperature') ?? defaultTemperature,
    topP: optionalNumber(b, 'top_p'),
    seed: optionalNumber(b, 'seed'),
    stop: stop as string[],
    stream: b.stream === true,
    includeUsage: streamOptions?.include_usage === true,
    responseFormat,
    schema,
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes)
      throw new HttpError(413, 'invalid_request_error', {
        message: `the request body is larger than ${maxBodyBytes} bytes`,
      });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw invalid('the request body is not valid JSON');
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    // A stream already started: llama.cpp sends the error as one more event.
    const message = error instanceof Error ? error.message : String(error);
    res.end(`data: ${JSON.stringify({ error: { message, type: 'server_error', code: 500 } })}\n\n`);
    return;
  }
  if (error instanceof HttpError) {
    sendJson(res, error.status, {
      error: { message: error.message, type: error.type, code: error.status, ...error.extra },
    });
  } else {
    sendJson(res, 500, {
      error: { message: error instanceof Error ? error.message : String(error), type: 'server_error', code: 500 },
    });
  }
}

/**
 * Starts the fixture: loads the model (well under a second for SmolLM2-135M) and listens on 127.0.0.1.
 * Endpoints: POST /v1/chat/completions, GET /v1/models, GET /health, GET /stats (the requests' stats, snake_case).
 */
export async function startRealModelServer(options: RealModelServerOptions): Promise<RealModelServer> {
  const llama = await loadLlama();
  const model: LlamaModel = await llama.loadModel({ modelPath: options.modelPath });
  const contextSize = options.contextSize ?? Math.min(8192, model.trainContextSize);
  const context = await model.createContext({
    contextSize,
    sequences: 1,
    threads: options.threads ?? 1,
    flashAttention: options.flashAttention ?? true,
  });
  const sequence: LlamaContextSequence = context.getSequence();
  const chatWrapper: ChatWrapper = new LlamaChat({ contextSequence: sequence }).chatWrapper;
  const maxTokensCap = options.maxTokensCap ?? 512;
  const modelName = basename(options.modelPath);
  const slot = new OneSlot();
  const finished: RealModelRequestStats[] = [];
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  let eventCounter = 0;
  const open = new Set<ServerResponse>();

  function grammarFor(request: ChatRequest): Promise<LlamaGrammar> | undefined {
    if (request.responseFormat === 'text') return undefined;
    const key = request.schema ? JSON.stringify(request.schema) : 'json';
    let grammar = grammars.get(key);
    if (!grammar) {
      // The schema passed toGrammarSchema, which keeps to what node-llama-cpp's generator reads.
      grammar = request.schema
        ? llama.createGrammarForJsonSchema(request.schema as never)
        : llama.getGrammarFor('json');
      grammars.set(key, grammar);
      grammar.catch(() => grammars.delete(key));
    }
    return grammar;
  }

  function countPromptTokens(history: ChatHistoryItem[]): number {
    return chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(model.tokenizer).length;
  }

  async function complete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = parseRequest(await readBody(req));
    const receivedAt = performance.now();
    const promptTokens = countPromptTokens(request.history);
    if (promptTokens >= contextSize) {
      throw new HttpError(400, 'exceed_context_size_error', {
        message: 'the request exceeds the available context size, try increasing it',
        extra: { n_prompt_tokens: promptTokens, n_ctx: contextSize },
      });
    }
    let grammar: LlamaGrammar | undefined;
    try {
      grammar = await grammarFor(request);
    } catch (error) {
      throw invalid(
        `response_format: the schema could not be turned into a grammar: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
    const created = Math.floor(Date.now() / 1000);
    const modelId = request.model || modelName;
    const stream = request.stream && !options.ignoreStream;
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('the client closed the connection'));
    });

    const queued = ++eventCounter; // no await between this and joining the queue: the counter gives the queue's order
    await slot.run(async () => {
      const stat: RealModelRequestStats = {
        id,
        model: modelId,
        stream,
        responseFormat: request.responseFormat,
        queueWaitMs: performance.now() - receivedAt,
        promptTokens,
        prefillMs: 0,
        generatedTokens: 0,
        generationMs: 0,
        finishReason: 'aborted',
        order: { queued, started: ++eventCounter, finished: 0 },
      };
      const finish = (): void => {
        stat.order.finished = ++eventCounter;
        finished.push(stat);
      };
      if (abort.signal.aborted) return finish(); // its client left while it waited
      const chunk = (delta: Record<string, unknown>, finishReason: string | null): string =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: modelId, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
      if (stream) {
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        res.write(chunk({ role: 'assistant', content: null }, null));
      }
      const maxTokens = Math.min(request.maxTokens ?? maxTokensCap, maxTokensCap, contextSize - promptTokens);
      const startedAt = performance.now();
      let firstTokenAt: number | undefined;
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper });
      // Tokens are counted as sampled (the token meter; the end-of-generation token included, as llama.cpp counts
      // them): onToken leaves out tokens held back while they might begin a stop trigger.
      const meterAtStart = sequence.tokenMeter.getState();
      const measure = (): void => {
        const endedAt = performance.now();
        stat.generatedTokens = sequence.tokenMeter.diff(meterAtStart).usedOutputTokens;
        stat.prefillMs = (firstTokenAt ?? endedAt) - startedAt;
        stat.generationMs = endedAt - (firstTokenAt ?? endedAt);
      };
      try {
        await sequence.clearHistory();
        const result = await chat.generateResponse(request.history, {
          maxTokens,
          temperature: request.temperature,
          topK: defaultTopK,
          topP: request.topP ?? defaultTopP,
          minP: defaultMinP,
          ...(request.seed === undefined ? {} : { seed: request.seed }),
          ...(grammar ? { grammar } : {}),
          ...(request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
          signal: abort.signal,
          onToken: (tokens) => {
            if (tokens.length > 0) firstTokenAt ??= performance.now();
          },
          ...(stream
            ? { onTextChunk: (text: string) => void (text && res.write(chunk({ content: text }, null))) }
            : {}),
        });
        measure();
        const finishReason = result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
        stat.finishReason = finishReason;
        const usage = {
          prompt_tokens: promptTokens,
          completion_tokens: stat.generatedTokens,
          total_tokens: promptTokens + stat.generatedTokens,
        };
        if (stream) {
          res.write(chunk({}, finishReason));
          if (request.includeUsage) {
            res.write(
              `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: modelId, choices: [], usage })}\n\n`,
            );
          }
          res.end('data: [DONE]\n\n');
        } else {
          sendJson(res, 200, {
            id,
            object: 'chat.completion',
            created,
            model: modelId,
            choices: [
              { index: 0, message: { role: 'assistant', content: result.response }, finish_reason: finishReason },
            ],
            usage,
          });
        }
      } catch (error) {
        measure();
        if (!abort.signal.aborted) {
          stat.finishReason = 'error';
          sendError(res, error);
        }
      } finally {
        chat.dispose({ disposeSequence: false });
        finish();
      }
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions'))
      return complete(req, res);
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: modelName, object: 'model', created: 0, owned_by: 'llamacpp' }],
      });
    }
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' });
    if (req.method === 'GET' && path === '/stats') return sendJson(res, 200, { requests: finished.map(statsToWire) });
    throw new HttpError(404, 'not_found_error', { message: `no route ${req.method ?? ''} ${path}` });
  }

  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    handle(req, res).catch((error: unknown) => sendError(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    modelPath: options.modelPath,
    contextSize,
    stats: () => finished.map((s) => ({ ...s, order: { ...s.order } })),
    async close() {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await slot.run(async () => {
        await context.dispose();
        await model.dispose();
      });
    },
  };
}

function statsToWire(s: RealModelRequestStats): Record<string, unknown> {
  return {
    id: s.id,
    model: s.model,
    stream: s.stream,
    response_format: s.responseFormat,
    queue_wait_ms: s.queueWaitMs,
    prompt_tokens: s.promptTokens,
    prefill_ms: s.prefillMs,
    generated_tokens: s.generatedTokens,
    generation_ms: s.generationMs,
    finish_reason: s.finishReason,
    order: s.order,
  };
}
