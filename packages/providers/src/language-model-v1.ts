import type { CouncilCallContext } from './council-call-context.js';

/**
 * The model interface every provider implements. Types only, and versioned: a breaking change
 * becomes `LanguageModelV2` beside this one, so callers can support both during a migration.
 */

export type MessageRole = 'system' | 'user' | 'assistant';

export interface Message {
  role: MessageRole;
  content: string;
}

export interface GenerateOptions {
  messages: readonly Message[];
  temperature?: number;
  maxTokens?: number;
  /** Asks the provider for reproducible sampling where it supports it. */
  seed?: number;
  abortSignal?: AbortSignal;
  /** A deadline for the whole call, all retries included. */
  timeoutMs?: number;
  /** Extra body fields for one provider, keyed by provider name, e.g. `{ openrouter: { provider: { sort: 'price' } } }`. */
  providerOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The council stage this call plays and the answers its prompt shows; HTTP providers ignore it, the simulated provider plays from it. */
  council?: CouncilCallContext;
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
  doGenerate(options: GenerateOptions): Promise<GenerateResult>;
  doStream?(options: GenerateOptions): AsyncIterable<StreamPart>;
}
