import type { BoundedMeanInterval } from './bounded-mean-interval.js';
import type { ConfidenceTier } from './confidence-tier.js';

/** One member's part in one session's synthesis: the fields of a contribution record the aggregation reads. */
export interface ContributionInput {
  sessionId: string;
  /** ISO 8601; the session's time. */
  timestamp: string;
  member: string;
  strategy: string;
  /** Normalised weight in the chairman's contributors block; 0 when not credited; null when the session had no usable block. */
  weight: number | null;
  /** The member was the session's single Borda leader. */
  voteWinner: boolean;
}

/** An influence share: the mean per-session weight over the sessions with a block, with its interval (`n`: sessions behind it). */
export interface MeanWeight extends BoundedMeanInterval {
  /** ADR-018's tier from `n` (`confidenceTier`): below 10 sessions the figure is insufficient data. */
  tier: ConfidenceTier;
}

/** A share of sessions (vote wins), with its Wilson interval. */
export type SessionShare = BoundedMeanInterval;

export interface MemberContribution {
  member: string;
  /** Sessions with a synthesis the member sat in (answered in stage 1). */
  satIn: number;
  /** Of those, sessions with a contributors block: the sessions behind `meanWeight`. */
  sessions: number;
  /** Sessions whose block gave the member a weight above 0. */
  credited: number;
  /** Influence share: the mean of the member's per-session weight (0 when not credited). */
  meanWeight: MeanWeight;
  /** Sessions the member led the stage-2 Borda ranking alone. */
  wins: number;
  /** `wins` / `satIn`. */
  winShare: SessionShare;
}

/** The member × strategy matrix of mean weights (the dashboard's heatmap); a cell only where the member sat in a session of the strategy with a block. */
export interface ContributionHeatmap {
  strategies: string[];
  cells: { member: string; strategy: string; meanWeight: MeanWeight }[];
}

/** What `aggregateContributions` returns. */
export interface ContributionsReport {
  /** Sessions in the window. */
  sessions: number;
  /** Of those, sessions whose chairman gave a usable contributors block. */
  sessionsWithBlock: number;
  window: {
    /** The window's `since`, as given (normalised to ISO), or null. */
    since: string | null;
    /** The window's `sessions` (the last N kept), or null when every session is. */
    maxSessions: number | null;
    /** The first and last session times in the window, or null when it is empty. */
    first: string | null;
    last: string | null;
  };
  /** The confidence level of every interval (0.95 by default). */
  level: number;
  /** By influence share, highest first (members with no block last), then by id. */
  members: MemberContribution[];
  heatmap: ContributionHeatmap;
}
