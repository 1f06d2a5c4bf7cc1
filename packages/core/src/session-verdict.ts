import type { VerdictReason } from './decide-verdict.js';
import type { JuryDecision, VerdictMode } from './jury-decision.js';

/**
 * How a juror's decision was read: from its JSON block or a `DECISION:` line, each `-repaired` when only the reply
 * to one repair request gave it; `unread` when none could be read even then (the juror counts as `unclear`);
 * `failed` when the member's call failed (it has no vote).
 */
export type JurorReadPath = 'json' | 'line' | 'json-repaired' | 'line-repaired' | 'unread' | 'failed';

/** One juror's vote as the session records it. */
export interface JurorRecord {
  member: string;
  model: string;
  /** The decision counted: an unread decision counts as `unclear`; null for a member that failed (no vote). */
  decision: JuryDecision | null;
  read: JurorReadPath;
  /** 0 to 1, as the juror gave it; null when it gave none. */
  confidence: number | null;
  reasons: string[];
  /** The vote's weight: 1 + its Borda score, 1 without votes (see `juryWeight`); 0 for a failed member. */
  weight: number;
  /** Its answer's Borda score from the peer review; null when it got no votes. */
  bordaScore: number | null;
  /**
   * What the bias store knows about this member as a reviewer (`RunCouncilOptions.reviewerFlags`: e.g. "position
   * bias"), so a flagged reviewer is named beside its vote; empty when nothing is flagged or there was too little data.
   */
  reviewerFlags: string[];
}

/** Jury mode's verdict (`verdict: 'binary' | 'tie-breaker'`), with everything needed to check it by hand. */
export interface SessionVerdict {
  mode: VerdictMode;
  decision: JuryDecision;
  reason: VerdictReason;
  /** (approve weight − reject weight) / jury weight, −1 to +1. */
  margin: number;
  minMargin: number;
  /** The fewest members that had to decide approve or reject. */
  quorum: number;
  approveWeight: number;
  rejectWeight: number;
  unclearWeight: number;
  totalWeight: number;
  votes: JurorRecord[];
  /** Members whose single change of vote would change the verdict (`pivotalJurors`). */
  pivotal: string[];
  /** True when some single member's change of vote would change the verdict. */
  flipSensitive: boolean;
  /** The chairman's own decision (its `Decision:` line); null when it gave none or failed. */
  chairmanDecision: JuryDecision | null;
  /** The chairman's rationale (its answer without the decision line and the dissent); null without a chairman. */
  rationale: string | null;
  /** The chairman's `## Dissent` section: the strongest minority argument; null when it wrote none. */
  dissent: string | null;
  warnings: string[];
}
