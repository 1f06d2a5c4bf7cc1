import { noRank } from '@council/bias-audit';
import type { BiasColumns } from '@council/bias-audit';
import { ScoringError, styleControlledBradleyTerry } from '@council/scoring';
import type { StyleControlledRatings, StyledSession } from '@council/scoring';

/** What the bias records let the style control take: an answer's length, and nothing else of its text. */
export const BIAS_STYLE_NOTE =
  "answer length is the only style covariate here: the bias records keep each answer's length, not its text (council leaderboard --calibrated also controls for the history's style statistics)";

/** The style-controlled ratings of the bias report, or why they could not be computed. */
export type BiasStyleControlled =
  | (StyleControlledRatings & { computable: true; note: string })
  /** `reason` in words; `detail`, where the fit refused, its own message. */
  | { computable: false; reason: string; detail?: string };

/**
 * Bradley–Terry ratings from the window's rankings with each answer's length as a covariate, beside the plain fit
 * (issue 31 item 5), from the bias records alone: a session's ballots are each reviewer's records ordered by the rank
 * it gave (records without a rank left out), an answer's feature its length in 1,000s of characters, as
 * `council leaderboard --calibrated` and the report's length slope read it. Length, not its log: where reviewers'
 * taste is linear in characters the log under-corrects (issue 31's study, bias-audit's README: the planted order
 * came back in 4 of 30 stores at 300 sessions with log length). A window whose answers all have one length, or whose
 * ballots rank fewer than two members, is said as not computable.
 */
export function biasStyleControlled(
  columns: BiasColumns,
  options: { bootstrap: number; seed: number },
): BiasStyleControlled {
  const { models, reviewer, candidate, rankPosition, responseLengthChars, sessionStart, sessionIds } = columns;
  const sessions: StyledSession[] = [];
  let shortest = Number.POSITIVE_INFINITY;
  let longest = Number.NEGATIVE_INFINITY;
  for (let s = 0; s < sessionIds.length; s++) {
    const answers: Record<string, number[]> = {};
    const ranks = new Map<number, { rank: number; candidate: string }[]>();
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) {
      if (rankPosition[i] === noRank) continue;
      const name = models[candidate[i]!]!;
      const length = responseLengthChars[i]! / 1000;
      answers[name] = [length];
      shortest = Math.min(shortest, length);
      longest = Math.max(longest, length);
      const list = ranks.get(reviewer[i]!) ?? [];
      list.push({ rank: rankPosition[i]!, candidate: name });
      ranks.set(reviewer[i]!, list);
    }
    if (ranks.size === 0) continue;
    sessions.push({
      id: sessionIds[s]!,
      answers,
      ballots: [...ranks].map(([r, list]) => ({
        reviewer: models[r]!,
        ranking: list.sort((a, b) => a.rank - b.rank).map((e) => e.candidate),
      })),
    });
  }
  if (sessions.length === 0) return { computable: false, reason: 'no reviewer ranked the answers in this window' };
  if (!(longest > shortest))
    return {
      computable: false,
      reason: 'every ranked answer in this window has the same length, so there is no style to control for',
    };
  try {
    const ratings = styleControlledBradleyTerry(sessions, {
      featureNames: ['length_per_1000_chars'],
      bootstrap: options.bootstrap,
      seed: options.seed,
    });
    if (ratings.comparisons === 0)
      return { computable: false, reason: 'no reviewer ranked two answers of other members in this window' };
    return { computable: true, ...ratings, note: BIAS_STYLE_NOTE };
  } catch (error) {
    // The fit's own message names its options: a reader gets what it means, a script the message too.
    if (ScoringError.isInstance(error))
      return {
        computable: false,
        reason:
          "the rankings cannot tell the members' quality from their answers' length (for example, the longer answer always won)",
        detail: error.message,
      };
    throw error;
  }
}
