import { kendallW, krippendorffAlpha } from '@council/scoring';
import type { Ballot } from '@council/scoring';
import type { SessionAgreement } from './council-session.js';

/** Reviewer agreement over the ballots; a figure that cannot be computed stays null with a warning. */
export function measureAgreement(
  ballots: readonly Ballot[],
  options: { candidates: readonly string[]; excludeSelfVotes: boolean },
): { agreement: SessionAgreement; warnings: string[] } {
  const { candidates, excludeSelfVotes } = options;
  const warnings: string[] = [];
  const agreement: SessionAgreement = {
    kendallW: null,
    kendallWPValue: null,
    krippendorffAlpha: null,
    ballots: ballots.filter((b) => !b.abstained && b.ranking.length > 0).length,
  };
  try {
    const w = kendallW(ballots, { candidates });
    agreement.kendallW = w.w;
    agreement.kendallWPValue = w.pValue;
  } catch (error) {
    warnings.push(`Kendall's W not computable: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    agreement.krippendorffAlpha = krippendorffAlpha(ballots, { candidates, excludeSelfVotes }).alpha;
  } catch (error) {
    warnings.push(`Krippendorff's alpha not computable: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { agreement, warnings };
}
