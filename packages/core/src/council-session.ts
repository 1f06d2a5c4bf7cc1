import type { BiasAuditResult, SessionBiasFlag, SessionBiasIndicators } from '@council/bias-audit';
import type { Usage } from '@council/providers';
import type { LeaderboardEntry } from '@council/scoring';
import type { OrderMode } from './order-mode.js';
import type { SelfReview, StageTimeouts, SynthesisMode } from './council-config.js';
import type { InjectionSignal } from './detect-injection.js';
import type { LabelToModel } from './label-to-model.js';
import type { Contributor } from './parse-contributors.js';
import type { Critique, EvaluationFormat } from './parse-evaluation.js';
import type { EvidenceReport } from './frame-evidence.js';
import type { VerdictMode } from './jury-decision.js';
import type { JurorDecisionRead } from './read-jury-decision.js';
import type { SessionVerdict } from './session-verdict.js';

/** Why a model call produced nothing usable. */
/** Why a model call produced nothing usable; `too-large`: its reply passed the size limit and was cut off unread. */
export type FailureReason = 'timeout' | 'error' | 'empty' | 'aborted' | 'too-large';

/** A failed model call, as recorded in the session. */
export interface CallError {
  reason: FailureReason;
  /** The error's code when it had one (`TIMEOUT`, `MODEL_NOT_FOUND`, …). */
  code: string | null;
  message: string;
}

/** The options a session ran with, as recorded in it (member and model ids only; never secrets). */
export interface SessionConfig {
  members: string[];
  chairman: string;
  chairmanFallbacks: string[];
  strategy: string;
  goal: string | null;
  mode: SynthesisMode;
  order: OrderMode;
  seed: number | string | null;
  quorum: number;
  excludeSelfVotes: boolean;
  selfReview: SelfReview;
  maxReviewers: number | null;
  timeouts: StageTimeouts;
  biasAudit: boolean;
  /** Present (false) only when the session was run without stage 3 (`synthesis: false`). */
  synthesis?: false;
  /** Present in jury mode: the verdict mode and the margin threshold it ran with. */
  verdict?: VerdictMode;
  verdictMinMargin?: number;
}

/** One member's stage-1 answer (or failure). */
export interface Stage1Result {
  member: string;
  /** The model id that played the member. */
  model: string;
  /** Null when the call failed. */
  text: string | null;
  usage: Usage | null;
  latencyMs: number;
  error: CallError | null;
  /** The answer looks like it tries to steer its reviewers (see `injectionSignals`). */
  suspectedInjection: boolean;
  injectionSignals: InjectionSignal[];
  /** Jury mode: the decision read from the answer (absent outside jury mode and when the call failed). */
  decision?: JurorDecisionRead;
}

/** A parsed evaluation with labels mapped back to member ids. */
export interface SessionEvaluation {
  /** Member ids, best first. */
  ranking: string[];
  /** Scores 1–10 by member id. */
  scores: Record<string, number>;
  /** Critiques by member id. */
  critiques: Record<string, Critique>;
  abstained: boolean;
  format: EvaluationFormat;
}

/**
 * How a review was asked for and read: `structured` (a reply constrained to the review's JSON schema) or `text`
 * (the `FINAL RANKING` text format, where the provider cannot constrain output or refused to), each `-repaired`
 * when the ranking was read only from the reply to one repair request; `unread` when no ranking could be read
 * even then (the review counts as abstained and adds no ballot).
 */
export type ReviewReadPath = 'structured' | 'text' | 'structured-repaired' | 'text-repaired' | 'unread';

/** One reviewer's stage-2 view: the order it saw, its labels, and what it said. */
export interface Stage2Result {
  reviewer: string;
  model: string;
  /** Member ids in the order shown (index = display position = the label's letter). */
  order: string[];
  /** ADR-017's enhanced mapping: `{ "Response A": { model: <member id>, displayIndex: 0 } }`. */
  labelToModel: LabelToModel;
  /** Null when the call failed. */
  evaluation: SessionEvaluation | null;
  /** The reviewer's raw text, null when the call failed. */
  text: string | null;
  /** How the review was read; null when the call failed. Absent in sessions saved before it was recorded. */
  readPath?: ReviewReadPath | null;
  /** The reviewer's reply to the repair request, when one was sent (null when that call failed). */
  repairText?: string | null;
  warnings: string[];
  usage: Usage | null;
  latencyMs: number;
  error: CallError | null;
}

/** Reviewer agreement over the session's ballots; a figure is null when it cannot be computed. */
export interface SessionAgreement {
  kendallW: number | null;
  kendallWPValue: number | null;
  krippendorffAlpha: number | null;
  /** Ballots that ranked something. */
  ballots: number;
}

/** The chairman's synthesis (stage 3). */
export interface SessionSynthesis {
  /** The answer, with the contributors block removed. */
  text: string;
  /** Null when the chairman gave no usable contributors block (see `warnings`). */
  contributors: Contributor[] | null;
  /**
   * In `voting` mode, the winner: the member the chairman named or, when it named none, the single Borda
   * leader (see `winnerSource` and `warnings`); null in `consensus` mode or when neither exists.
   */
  winner: string | null;
  /** Where `winner` came from: `chairman`, `borda-leader` (the chairman named none), or null when there is no winner. */
  winnerSource: 'chairman' | 'borda-leader' | null;
  strategy: string;
  mode: SynthesisMode;
  /** The chairman that answered (the requested one, or the fallback that took over). */
  model: string;
  warnings: string[];
  usage: Usage;
  latencyMs: number;
}

/** ADR-018's `bias_indicators`, plus `SUSPECTED_INJECTION` when an answer looked like a prompt injection. */
export type CouncilBiasIndicators = Omit<SessionBiasIndicators, 'flags'> & {
  flags: Array<SessionBiasFlag | 'SUSPECTED_INJECTION'>;
};

/** A member, reviewer or chairman call that was dropped, and why. */
export interface Exclusion {
  member: string;
  stage: 1 | 2 | 3;
  reason: FailureReason;
  message: string;
}

/** Tokens and cost over every call of the session. */
export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  /** inputTokens + outputTokens. */
  tokens: number;
  /** Sum of the costs the providers reported; null when none did. */
  costUsd: number | null;
}

/** The cost cap a session ran under (`maxCostUsd`), and whether it stopped the session. */
export interface SessionCostCap {
  maxCostUsd: number;
  /** What the session had spent at the last check (before stage 2 or 3); null when no provider reported a cost. */
  spentUsd: number | null;
  /** The last stage's estimated cost; null when it could not be estimated (no provider reported a cost). */
  estimatedUsd: number | null;
  /** The stage the cap stopped the session before (everything before it is kept), or null when it ran to the end. */
  stoppedBeforeStage: 2 | 3 | null;
}

/**
 * One council session: plain data, JSON round-trips it, and with the same seed, the same model
 * outputs and an injected clock it is byte-identical across runs apart from `sessionId`, which is
 * always unique.
 */
export interface CouncilSession {
  /** A fresh random UUID for every session, seeded or not. */
  sessionId: string;
  /** ISO 8601, from the injected clock. */
  timestamp: string;
  /** The question. It goes to the models and stays in the session; it never enters telemetry or bias observations. */
  query: string;
  config: SessionConfig;
  stage1: Stage1Result[];
  stage2: Stage2Result[];
  /** Borda leaderboard over the members that answered, best first. */
  leaderboard: LeaderboardEntry[];
  agreement: SessionAgreement;
  /** Null when every chairman failed; the rest of the session is kept. */
  synthesis: SessionSynthesis | null;
  /** The per-session audit (ADR-015), when enabled. */
  biasAudit: BiasAuditResult | null;
  biasIndicators: CouncilBiasIndicators | null;
  excluded: Exclusion[];
  usage: SessionUsage;
  /** Session-level notes: agreement not computable, no chairman answered, stopped by the cost cap, … */
  warnings: string[];
  /** Present on a follow-up (`followUp`): the conversation it belongs to and the session it continues. */
  conversation?: { id: string; previousSessionId: string };
  /** Present when the session ran under a cost cap (`maxCostUsd`). */
  costCap?: SessionCostCap;
  /** Present in jury mode (`verdict`): each member's decision, the weighted margin, the verdict and its dissent. */
  verdict?: SessionVerdict;
  /**
   * Present when evidence was given: per item, how much each prompt carried and which lines looked like injections.
   * Never the evidence text (that went to the models only).
   */
  evidence?: EvidenceReport[];
}
