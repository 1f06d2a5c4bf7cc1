/** One stage-1 response: its text, or its length when the text is not at hand. */
export type SessionResponse =
  | { candidate: string; text: string }
  | {
      candidate: string;
      /** Whitespace-separated words, as ADR-015 counts length. */
      wordCount: number;
      /** Characters (Unicode code points); optional when only words are known. */
      charCount?: number;
    };

/** Positions shared by every reviewer (`{ candidate: position }`) or per reviewer (`{ reviewer: { candidate: position } }`). */
export type SessionPositions =
  Readonly<Record<string, number>> | Readonly<Record<string, Readonly<Record<string, number>>>>;

/** The input of `runBiasAudit`: one council session. */
export interface BiasAuditInput {
  /** Stage 1: one entry per candidate (member) that answered. */
  responses: readonly SessionResponse[];
  /** Stage 2: `{ reviewer: { candidate: score } }`; null (or absent) where a reviewer gave no score. */
  scores: Readonly<Record<string, Readonly<Record<string, number | null>>>>;
  /**
   * 0-based display positions, shared or per reviewer (ADR-017's per-reviewer orders); omit when
   * unknown, and position bias is then reported as not computable.
   */
  positions?: SessionPositions;
}

/** Detection thresholds of the per-session audit. */
export interface BiasAuditThresholds {
  /** |r| above this (with p < 0.05) flags length bias. Default 0.3 (`LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD`). */
  lengthCorrelation?: number;
  /** Variance of per-position mean scores above this flags position bias. Default 0.5 (`LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD`). */
  positionVariance?: number;
  /** A reviewer's own score exceeding the others' mean for its response by more than this many points flags self-preference. Default 1. */
  selfVoteInflation?: number;
}
