import type { CouncilSession } from './council-session.js';

/**
 * What a session fell short of: `no-synthesis` (synthesis was asked for and no chairman gave one),
 * `not-ranked` (no leaderboard: fewer than three answers, or no ballot), `no-review-read` (reviews came back but
 * no ranking could be read from any of them).
 */
export type SessionShortfall = 'no-synthesis' | 'not-ranked' | 'no-review-read';

export interface SessionOutcome {
  /** True when the session produced what was asked (a synthesis, or with `synthesis: false` a ranking) and a review could be read. */
  complete: boolean;
  /** Every shortfall, in the order above; empty when nothing is missing. */
  shortfalls: SessionShortfall[];
}

/** Whether a review's ranking was read: recorded as `readPath`, or for sessions saved before it, a non-empty ranking. */
function reviewRead(review: CouncilSession['stage2'][number]): boolean {
  if (review.readPath !== undefined && review.readPath !== null) return review.readPath !== 'unread';
  return (review.evaluation?.ranking.length ?? 0) > 0;
}

/**
 * Judges a finished session: complete when it produced what was asked (a synthesis; for a session run with
 * `synthesis: false`, recorded as `config.synthesis`, or judged with `options.synthesis: false`, a ranking), with every shortfall named, so `ask`, `batch`, the MCP tool and the local server report and exit alike.
 */
export function sessionOutcome(
  session: Pick<CouncilSession, 'synthesis' | 'leaderboard' | 'stage2' | 'config'>,
  options: { synthesis?: boolean } = {},
): SessionOutcome {
  const wantsSynthesis = options.synthesis ?? session.config.synthesis !== false;
  const shortfalls: SessionShortfall[] = [];
  if (wantsSynthesis && session.synthesis === null) shortfalls.push('no-synthesis');
  if (session.leaderboard.length === 0) shortfalls.push('not-ranked');
  const answered = session.stage2.filter((r) => r.error === null);
  if (answered.length > 0 && !answered.some(reviewRead)) shortfalls.push('no-review-read');
  // A session whose reviews came back but none could be read is not complete even with a synthesis: its peer
  // review, ranking and bias records all failed. One that is only `not-ranked` while it synthesised stays complete
  // (a council of two members is never ranked, by design).
  const produced = wantsSynthesis ? session.synthesis !== null : session.leaderboard.length > 0;
  const complete = produced && !shortfalls.includes('no-review-read');
  return { complete, shortfalls };
}

/** One short phrase per shortfall, for messages: "no synthesis", "not ranked", "no review could be read". */
export function describeShortfall(shortfall: SessionShortfall): string {
  switch (shortfall) {
    case 'no-synthesis':
      return 'no synthesis';
    case 'not-ranked':
      return 'not ranked';
    case 'no-review-read':
      return 'no review could be read';
  }
}
