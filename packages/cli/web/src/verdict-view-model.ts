import type { SessionVerdict } from '@council/core';

/** "+0.33" / "−1.00": a margin with its sign, as the terminal writes it. */
export function signedMargin(margin: number): string {
  return `${margin >= 0 ? '+' : '−'}${Math.abs(margin).toFixed(2)}`;
}

/**
 * Why the rule decided, in the words of core's `describeReason` (which `ask` and the gate print): the page cannot
 * import core's index, so the five cases are said here again; `verdict-view-model.test.ts` holds them to the terminal's.
 */
export function verdictReasonText(verdict: SessionVerdict): string {
  const decided = verdict.votes.filter((v) => v.decision === 'approve' || v.decision === 'reject').length;
  switch (verdict.reason) {
    case 'majority':
      return `weighted majority, margin ${signedMargin(verdict.margin)}`;
    case 'tie':
      return 'an exact tie between approve and reject';
    case 'tie-breaker':
      return "an exact tie, broken by the chairman's decision";
    case 'below-margin':
      return `margin ${signedMargin(verdict.margin)} is below the threshold ${verdict.minMargin.toFixed(2)}`;
    case 'no-quorum':
      return `${decided === 0 ? 'no member' : `only ${decided} member${decided === 1 ? '' : 's'}`} decided approve or reject; the quorum is ${verdict.quorum}`;
  }
}
