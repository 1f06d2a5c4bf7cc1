import type { VerdictMode } from './jury-decision.js';
import type { OrderMode } from './order-mode.js';

/** How the chairman synthesises: `consensus` (a synthesis of the strengths) or `voting` (also reports the winner). */
export type SynthesisMode = 'consensus' | 'voting';

/** `include` (default): a reviewer also sees its own answer, so self-preference can be measured. `omit`: it does not. */
export type SelfReview = 'include' | 'omit';

/** Per-stage deadlines in milliseconds, for each model call of the stage. */
export interface StageTimeouts {
  stage1Ms: number;
  stage2Ms: number;
  stage3Ms: number;
}

/**
 * The resolved configuration: built-in defaults ← `$LLM_COUNCIL_HOME/config.yaml` ←
 * `organizations/<org>/config/system-prompts.yaml` ← explicit options (design doc §6.3).
 * Every prompt text lives here, not in code; templates use `{placeholder}`s.
 */
export interface CouncilConfig {
  /** The stage-2 prompt. Placeholders: `{query}`, `{responses}` (required), `{count}`, `{labels}`, `{output_format}`. */
  evaluationPrompt: string;
  /** The unified evaluation format (§4.2); must contain `FINAL RANKING`. Placeholders: `{labels}`, `{example_json}`, `{example_list}`. */
  rankingEnforcedOutputFormat: string;
  /** The stage-3 skeleton (§5.3). Placeholders: `{query}`, `{responses}`, `{directive}`, `{attribution_format}` (required), `{count}`, `{evaluations}`, `{mode_instruction}`. */
  consensusPrompt: string;
  /** The contributors metadata block instruction (§7.2); must contain `contributors`. Placeholder: `{member_ids}`. */
  attributionFormat: string;
  /** Added to the chairman's instructions in `voting` mode. Placeholder: `{member_ids}`. */
  votingInstruction: string;
  /** Personality evolution (§4.3). Placeholders: `{parents}`, `{feedback}` (required). */
  evolutionPrompt: string;
  /** How a follow-up (`ask --continue`) shows its question. Placeholders: `{previous_answer}`, `{query}`, `{boundary}` (required). */
  followUpPrompt: string;
  /** Jury mode's stage-1 prompt: the question (with its evidence) and the decision block asked for. Placeholder: `{query}` (required). */
  juryPrompt: string;
  /**
   * Jury mode's addition to the chairman's directive: the members' decisions and the rule's verdict, and the rationale
   * with its `## Dissent` section asked for. Placeholders: `{votes}`, `{verdict}` (required).
   */
  juryChairmanPrompt: string;
  /** Asks a model to summarise peer feedback. Placeholders: `{personality}`, `{themes}` (required). */
  feedbackSummaryPrompt: string;
  /** Strategic directives by key (`balanced`, `risk-averse`, `goal-seeking`, `novelty`, or custom). `{goal}` is filled in. */
  strategies: Record<string, string>;
  /** The default strategy key. */
  strategy: string;
  mode: SynthesisMode;
  /**
   * Whether a chat interface may offer the Voting/Consensus toggle (design doc §8.1: "if the organization allows
   * it"; `mode_toggle`). When false, a chat shows and runs only `mode`. Default true.
   */
  modeToggle: boolean;
  order: OrderMode;
  /** Jury mode for every session (`verdict: binary` in config.yaml); undefined (the default): no jury, the council answers. */
  verdict: VerdictMode | undefined;
  /** Jury mode: the smallest |weighted margin| that decides (`verdict_min_margin`, 0 to 1); below it the verdict is unclear. Default 0.1. */
  verdictMinMargin: number;
  /** Minimum stage-1 answers to go on. */
  quorum: number;
  excludeSelfVotes: boolean;
  selfReview: SelfReview;
  /** Run the per-session bias audit (ADR-015; `LLM_COUNCIL_BIAS_AUDIT`). */
  biasAudit: boolean;
  /**
   * Save each session's bias and contribution records for the cross-session report (ADR-018's opt-in:
   * `bias_persistence: true` in config.yaml, `LLM_COUNCIL_BIAS_PERSISTENCE`). Default false. Core saves nothing
   * itself: the front end (the CLI) reads this and writes the records, at consent level 1 and above.
   */
  biasPersistence: boolean;
  /**
   * Keep each session's question in the local history (`history_questions` in config.yaml), so that `council history`
   * and the web history show titles and search them. Default true; false keeps none. Core saves nothing itself, and
   * the question never enters bias records, contributions, telemetry or logs either way.
   */
  historyQuestions: boolean;
  timeouts: StageTimeouts;
  /**
   * How many times a model call is retried after a retryable failure (HTTP 408, 429, 5xx, network errors),
   * with backoff; 0 to 10. The CLI gives it to the providers (`--retries`, `retries:` in config.yaml).
   */
  retries: number;
  /** The most a session may cost, in US dollars; undefined for no cap (`max_cost_usd`, `--max-cost`). See `RunCouncilOptions.maxCostUsd`. */
  maxCostUsd: number | undefined;
  /**
   * The most bytes one model reply may have (`max_reply_bytes`); a larger one is cut off unread and its member
   * excluded ("reply too large"). The CLI gives it to the providers as `maxResponseBytes`. Default 4 MiB.
   */
  maxReplyBytes: number;
  /**
   * Stage 2 asks for each review as JSON following one schema where the reviewer's provider can constrain its
   * output (`structured_reviews`), and in the `FINAL RANKING` text format where it cannot or refuses. Default true.
   */
  structuredReviews: boolean;
  /**
   * Per provider (by its name in model ids: `ollama`, `llamacpp`, `openrouter`, …) settings: `maxConcurrency`, the
   * calls sent to its endpoint at once (`providers: { ollama: { max_concurrency: 1 } }`); the rest wait in Council's
   * queue, and a call's deadline runs only once it is sent. The CLI gives it to the providers.
   */
  providers: Record<string, ProviderConfig>;
  /**
   * Per model id (as written in `members`, `--models` or a personality's `model`), what `llm` users set per model:
   * `system`, a system prompt for its answers, and `temperature` (0 to 2) for every call to it
   * (`model_options: { "ollama:llama3.2": { temperature: 0.2 } }`). The CLI's `--system` and `-o temperature=…` win.
   */
  modelOptions: Record<string, ModelOptions>;
  /** Named lists of members (`pools: { quick: [...], deep: [...] }`), used as `--models @deep` (or `@deep` among other ids, in `members` too). */
  pools: Record<string, string[]>;
  /** Default member model ids (`LLM_COUNCIL_MODELS`), when the caller names none. */
  members: string[];
  /** Default chairman model id (`LLM_COUNCIL_CHAIRMAN`). */
  chairman: string | undefined;
  chairmanFallbacks: string[];
}

/** One provider's settings in the configuration (`providers.<name>`). */
export interface ProviderConfig {
  /** Calls in flight at once to this provider's endpoint (`max_concurrency`), 1 to 256. */
  maxConcurrency?: number;
}

/** One model's options in the configuration (`model_options.<model id>`). */
export interface ModelOptions {
  /** A system prompt sent before the question when it answers (stage 1). */
  system?: string;
  /** Sampling temperature for every call to it, 0 to 2. */
  temperature?: number;
}

/** A partial configuration, as one layer of the cascade supplies it. */
export type CouncilConfigLayer = Partial<
  Omit<CouncilConfig, 'timeouts' | 'strategies' | 'providers' | 'modelOptions'>
> & {
  providers?: Record<string, ProviderConfig>;
  modelOptions?: Record<string, ModelOptions>;
  timeouts?: Partial<StageTimeouts>;
  strategies?: Record<string, string>;
};
