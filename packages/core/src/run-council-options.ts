import type { BiasAuditThresholds } from '@council/bias-audit';
import type { LanguageModelV1 } from '@council/providers';
import type { CouncilConfig, SelfReview, StageTimeouts, SynthesisMode } from './council-config.js';
import type { CouncilEvent } from './council-event.js';
import type { CouncilMember } from './council-member.js';
import type { Stage1Result, Stage2Result } from './council-session.js';
import type { OrderMode } from './order-mode.js';
import type { FollowUp } from './build-follow-up-query.js';
import type { RandomSource } from './random-source.js';
import type { EvidenceItem } from './frame-evidence.js';
import type { VerdictMode } from './jury-decision.js';

/** A piece of the synthesis as the chairman writes it (`onSynthesisText`). */
export interface SynthesisTextPart {
  /** The chairman writing: when it fails and a fallback takes over, the text starts again under the new id. */
  chairman: string;
  strategy: string;
  mode: SynthesisMode;
  /** The next piece of the raw reply (the contributors block included; the session's `synthesis.text` has it removed). */
  text: string;
}

export interface RunCouncilOptions {
  /** The question. It goes to the models; it never enters telemetry, events or bias observations. */
  query: string;
  /** Model ids, `LanguageModelV1`s, personalities or `{ id, model, systemPrompt? }`. Default: `config.members`. */
  members?: readonly CouncilMember[];
  /** The chairman. Default: `config.chairman`, else the first member. */
  chairman?: CouncilMember;
  /** Tried in order when the chairman fails (a stale id must not lose a finished council). Default: `config.chairmanFallbacks`. */
  chairmanFallbacks?: readonly CouncilMember[];
  /** A strategy key from the configuration cascade. Default: `config.strategy` (`balanced`). */
  strategy?: string;
  /** The goal for `goal-seeking` (and any directive with `{goal}`). */
  goal?: string;
  mode?: SynthesisMode;
  order?: OrderMode;
  /** Seeds orders, labels, the boundary token and the reviewer sample (`LLM_COUNCIL_RANDOM_SEED`); also passed to the models. The session id is always fresh. */
  seed?: number | string;
  /**
   * The session's id, for a caller that names the session before it runs (`council serve` answers its `POST` with the
   * id the stored session will have). Default: a fresh random UUID. A seed never sets it: two runs are two sessions.
   */
  sessionId?: string;
  /** Per-stage deadlines for each call; unspecified stages take the config's. */
  timeouts?: Partial<StageTimeouts>;
  /** Minimum stage-1 answers to go on. Default: `config.quorum` (2). */
  quorum?: number;
  excludeSelfVotes?: boolean;
  selfReview?: SelfReview;
  /** Review with at most this many randomly sampled members (all by default). */
  maxReviewers?: number;
  /**
   * Stage 3: false skips the chairman (the session ends with the ranking; `synthesis` is null and, as asked, that
   * is no shortfall: see `sessionOutcome`). Default true.
   */
  synthesis?: boolean;
  /** Ask for reviews as schema-constrained JSON where the reviewer's model supports it. Default: `config.structuredReviews`. */
  structuredReviews?: boolean;
  /** Run the per-session bias audit and attach `bias_indicators`. Default: `config.biasAudit`. */
  biasAudit?: boolean;
  biasAuditThresholds?: BiasAuditThresholds;
  /** The resolved configuration cascade (`loadConfig`); default: the built-in defaults. */
  config?: CouncilConfig;
  abortSignal?: AbortSignal;
  onEvent?: (event: CouncilEvent) => void;
  /**
   * Receives the chairman's synthesis as it is written: stage 3 then streams (`doStream`) when the chairman's
   * model can, and is a single call as before when it cannot (nothing arrives here). A listener that throws is ignored.
   */
  onSynthesisText?: (part: SynthesisTextPart) => void;
  /**
   * Receives each stage-1 result as its call ends (in the order the calls end, one per member, a failed call
   * too, with `text` null). Events never carry model text; this is the way to show answers as they arrive.
   * A listener that throws is ignored.
   */
  onAnswer?: (result: Stage1Result) => void;
  /**
   * Receives each stage-2 review as its call ends (one per reviewer, a failed one too, with `evaluation` null);
   * its `labelToModel` tells which member each label stands for. A listener that throws is ignored.
   */
  onReview?: (result: Stage2Result) => void;
  /**
   * The most the session may cost, in US dollars: before stage 2 and before stage 3 it estimates the stage's cost
   * from what stage 1 cost (`estimateReviewCost`, `estimateSynthesisCost`) and stops there, keeping what finished,
   * when the spent and estimated cost together would pass it (see `costCap` and `warnings`). Default: `config.maxCostUsd` (none).
   */
  maxCostUsd?: number;
  /**
   * Makes the session a follow-up: every stage sees the question framed by `config.followUpPrompt`, with the
   * previous session's synthesis as context; the session records `conversation`. `query` stays the follow-up's own text.
   */
  followUp?: FollowUp;
  /**
   * Jury mode: each member decides approve, reject or unclear (with reasons and a confidence), the peers review the
   * reasoning as usual, and the verdict comes from the decisions weighted by the peer review (`decideVerdict`); the
   * chairman writes the rationale and the dissent. `tie-breaker`: the chairman's decision breaks an exact tie.
   * Default: `config.verdict` (none: the council answers).
   */
  verdict?: VerdictMode;
  /** Jury mode: the smallest |weighted margin| that decides, 0 to 1. Default: `config.verdictMinMargin` (0.1). */
  verdictMinMargin?: number;
  /**
   * Material every member, reviewer and chairman reads (a diff, logs, a design document), placed after the question
   * between the session's boundary markers, with the injection checks applied line by line (`session.evidence`).
   * Scan it for secrets before it gets here: core sends what it is given (see `scanSecrets`).
   */
  evidence?: readonly EvidenceItem[];
  /** The most evidence characters one prompt carries (cut at a line end, reported). Default 64,000. */
  maxEvidenceChars?: number;
  /**
   * Jury mode: what the bias store knows about each member as a reviewer, by member id or model id (e.g.
   * `{ "openai/gpt-4o": ["position bias"] }`), recorded beside its vote. Core reads no store: the caller computes it.
   */
  reviewerFlags?: Readonly<Record<string, readonly string[]>>;
  /** Milliseconds since the epoch; default `Date.now`. Drives the timestamp and the recorded latencies. */
  clock?: { now(): number };
  /** Overrides the rng that `seed` would create. */
  rng?: RandomSource;
  /** Turns model ids into models; default `@council/providers`' `resolveModel`. */
  resolveModel?: (id: string) => LanguageModelV1;
}
