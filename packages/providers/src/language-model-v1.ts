/**
 * The model interface every provider implements. Types only, and versioned: a breaking change
 * becomes `LanguageModelV2` beside this one, so callers can support both during a migration.
 */

export type MessageRole = 'system' | 'user' | 'assistant';

export interface Message {
  role: MessageRole;
  content: string;
}

/**
 * A JSON Schema (draft 2020-12 subset that every structured-output API accepts: `type`, `properties`, `required`,
 * `items`, `enum`, `minimum`/`maximum`, `minItems`/`maxItems`, `additionalProperties: false`, `description`).
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * Asks for a reply that is one JSON value matching `schema`, where the provider can constrain its output
 * (OpenAI-compatible `response_format: json_schema`, Ollama, Anthropic's forced tool input, Gemini's
 * `responseSchema`). The reply's `text` is then that JSON, serialised. A provider or server that refuses the
 * request fails with `StructuredOutputUnsupportedError` (code `STRUCTURED_OUTPUT_UNSUPPORTED`), and remembers the
 * refusal for its endpoint and model for the life of the process, so later calls fail at once without a request.
 */
export interface ResponseFormat {
  type: 'json';
  /** A name for the schema, letters, digits, `_` and `-` (OpenAI's `json_schema.name`, Anthropic's tool name). */
  name: string;
  schema: JsonSchema;
  description?: string;
}

export interface GenerateOptions {
  messages: readonly Message[];
  /** Structured output: see `ResponseFormat`. Only sent when the model's `supportsStructuredOutput` is true. */
  responseFormat?: ResponseFormat;
  /**
   * Called when the call has to wait for a free slot of its endpoint (the provider's `maxConcurrency`); not
   * called when a slot is free at once. The call's deadline (`timeoutMs`) does not run while it waits.
   */
  onQueued?: () => void;
  /** Called when the request leaves the queue and is sent: the call's deadline (`timeoutMs`) starts here. */
  onDispatched?: () => void;
  temperature?: number;
  maxTokens?: number;
  /** Asks the provider for reproducible sampling where it supports it. */
  seed?: number;
  abortSignal?: AbortSignal;
  /** A deadline for the whole call, all retries included, counted from when it is sent (see `onDispatched`), not while it waits in the queue. */
  timeoutMs?: number;
  /**
   * Options for one provider, keyed by provider name: each provider reads its own namespace and ignores the others,
   * so one call can carry options for any model it may reach. HTTP providers add theirs as body fields, e.g.
   * `{ openrouter: { provider: { sort: 'price' } } }`; the simulated provider reads `simulated`
   * (`SimulatedProviderOptions`: the council stage the call plays, which `@council/core` fills).
   */
  providerOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedTokens?: number;
  /** Cost of the call in US dollars, when the provider reports it (or it is known to be free). */
  costUsd?: number;
}

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

export interface GenerateResult {
  text: string;
  reasoning?: string;
  usage: Usage;
  finishReason: FinishReason;
  /** Wall time of the call, retries included, in milliseconds. */
  latencyMs: number;
  /** The provider's id for the response, when it gives one. */
  responseId?: string;
  /** The model that actually answered, when the provider routes (e.g. OpenRouter fallbacks). */
  responseModelId?: string;
  /** The seed the request used, echoed for reproducibility. */
  seed?: number;
  /** The provider's system fingerprint, when it returns one. */
  systemFingerprint?: string;
}

export type StreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage; responseId?: string; responseModelId?: string };

export interface LanguageModelV1 {
  readonly specificationVersion: 'v1';
  /** The provider's name, e.g. `openrouter`, `anthropic`, `simulated`. */
  readonly provider: string;
  /** The model id as the provider knows it, e.g. `anthropic/claude-opus-4.6`. */
  readonly modelId: string;
  /**
   * True when the model accepts `responseFormat` (every HTTP provider of this package); absent or false
   * when it ignores it (the simulated provider, a custom model), so callers ask in text instead.
   */
  readonly supportsStructuredOutput?: boolean;
  doGenerate(options: GenerateOptions): Promise<GenerateResult>;
  doStream?(options: GenerateOptions): AsyncIterable<StreamPart>;
}
