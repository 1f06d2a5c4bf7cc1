import type { JuryDecision, VerdictMode } from './jury-decision.js';

/** One juror as the verdict rule sees it: its decision (null when its call failed) and the weight of its vote. */
export interface JurorVote {
  member: string;
  /** Null: the member failed in stage 1 and is no part of the jury (it has no vote and no weight). */
  decision: JuryDecision | null;
  /** The vote's weight (`juryWeight`); ignored when `decision` is null. */
  weight: number;
}

/** Why the rule gave its decision. */
export type VerdictReason = 'majority' | 'tie' | 'tie-breaker' | 'below-margin' | 'no-quorum';

export interface DecideVerdictOptions {
  votes: readonly JurorVote[];
  mode: VerdictMode;
  /** The smallest |margin| that decides (0 to 1). */
  minMargin: number;
  /** The fewest members that must decide approve or reject. */
  quorum: number;
  /** The chairman's own decision, read from its reply; used in `tie-breaker` mode on an exact tie only. */
  chairmanDecision?: JuryDecision | null;
}

export interface VerdictTally {
  decision: JuryDecision;
  reason: VerdictReason;
  /** (approve weight − reject weight) / jury weight: +1 unanimous approve, −1 unanimous reject; 0 for an empty jury. */
  margin: number;
  approveWeight: number;
  rejectWeight: number;
  unclearWeight: number;
  /** The weight of every juror that answered (approve + reject + unclear). */
  totalWeight: number;
  /** Members that decided approve or reject. */
  decided: number;
}

/** Weights are sums of a few numbers in [1, 2]; equal up to this is a tie. */
const TIE_EPSILON = 1e-9;

/**
 * The weight of a juror's vote: 1 + its Borda score (0 to 1) from the peer review, so the answer its peers ranked
 * best counts up to twice the one they ranked worst, and no juror is silenced by its peers. A member whose answer got
 * no ballots (an unranked session: fewer than three answers, or no usable review) weighs 1, like every other.
 */
export function juryWeight(entry: { bordaScore: number; voteCount: number } | undefined): number {
  return entry !== undefined && entry.voteCount > 0 ? 1 + entry.bordaScore : 1;
}

/**
 * Jury mode's verdict rule (deterministic; the votes' order does not matter):
 *
 * 1. The jury is every member that answered; a failed member has no vote. `unclear` votes count in the jury's
 *    weight but for neither side.
 * 2. `margin` = (approve weight − reject weight) / jury weight, from −1 (unanimous reject) to +1.
 * 3. Fewer than `quorum` members decided approve or reject → `unclear` (`no-quorum`).
 * 4. Approve and reject weigh exactly the same → `unclear` (`tie`); in `tie-breaker` mode the chairman's own
 *    decision (approve or reject) breaks the tie (`tie-breaker`); an unclear or missing chairman leaves it a tie.
 * 5. |margin| below `minMargin` → `unclear` (`below-margin`).
 * 6. Otherwise the heavier side wins (`majority`).
 */
export function decideVerdict(options: DecideVerdictOptions): VerdictTally {
  let approveWeight = 0;
  let rejectWeight = 0;
  let unclearWeight = 0;
  let decided = 0;
  for (const vote of options.votes) {
    if (vote.decision === 'approve') approveWeight += vote.weight;
    else if (vote.decision === 'reject') rejectWeight += vote.weight;
    else if (vote.decision === 'unclear') unclearWeight += vote.weight;
    if (vote.decision === 'approve' || vote.decision === 'reject') decided++;
  }
  const totalWeight = approveWeight + rejectWeight + unclearWeight;
  const margin = totalWeight > 0 ? (approveWeight - rejectWeight) / totalWeight : 0;
  const tally = { margin, approveWeight, rejectWeight, unclearWeight, totalWeight, decided };
  if (decided < options.quorum) return { ...tally, decision: 'unclear', reason: 'no-quorum' };
  if (Math.abs(approveWeight - rejectWeight) <= TIE_EPSILON) {
    const chairman = options.chairmanDecision;
    if (options.mode === 'tie-breaker' && (chairman === 'approve' || chairman === 'reject'))
      return { ...tally, decision: chairman, reason: 'tie-breaker' };
    return { ...tally, decision: 'unclear', reason: 'tie' };
  }
  if (Math.abs(margin) < options.minMargin) return { ...tally, decision: 'unclear', reason: 'below-margin' };
  return { ...tally, decision: margin > 0 ? 'approve' : 'reject', reason: 'majority' };
}

/**
 * The members whose single change of vote would change the verdict: approve ↔ reject, and an `unclear` juror
 * deciding either way. Every other vote, the weights and the chairman's decision stay as they are. Empty when no
 * single juror can flip the verdict.
 */
export function pivotalJurors(options: DecideVerdictOptions): string[] {
  const base = decideVerdict(options).decision;
  const pivotal: string[] = [];
  options.votes.forEach((vote, i) => {
    if (vote.decision === null) return;
    const alternatives: JuryDecision[] =
      vote.decision === 'approve' ? ['reject'] : vote.decision === 'reject' ? ['approve'] : ['approve', 'reject'];
    const flips = alternatives.some((decision) => {
      const votes = options.votes.map((v, j) => (j === i ? { ...v, decision } : v));
      return decideVerdict({ ...options, votes }).decision !== base;
    });
    if (flips) pivotal.push(vote.member);
  });
  return pivotal;
}
