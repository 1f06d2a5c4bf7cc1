import type { Mode, SessionDocument } from './types.js';

/** The member whose answer Voting mode shows: the chairman's named winner, else the session's Borda leader. */
export function votingWinner(session: SessionDocument): string | null {
  return session.synthesis?.winner ?? session.leaderboard[0]?.candidate ?? null;
}

/** What the final-answer panel shows in a mode: the text and the badges under it. */
export interface DisplayedAnswer {
  mode: Mode;
  text: string | null;
  /** Why there is no text, when there is none. */
  missing: string | null;
  winner: string | null;
  contributors: { id: string; weight: number }[] | null;
}

export function displayedAnswer(session: SessionDocument, mode: Mode): DisplayedAnswer {
  if (mode === 'voting') {
    const winner = votingWinner(session);
    const answer = winner === null ? undefined : session.stage1.find((s) => s.member === winner);
    return {
      mode,
      text: answer?.text ?? null,
      missing:
        winner === null
          ? 'No winner: no member was ranked.'
          : answer?.text
            ? null
            : `The winner ${winner} has no answer text.`,
      winner,
      contributors: null,
    };
  }
  const synthesis = session.synthesis;
  return {
    mode,
    text: synthesis?.text ?? null,
    missing: synthesis ? null : 'No synthesis: no chairman answered.',
    winner: null,
    contributors: synthesis?.contributors ?? null,
  };
}

/** A streamed review's labels with the members behind them, once the session has revealed them. */
export function deanonymiseRanking(
  session: SessionDocument | null,
  review: { reviewer: string; ranking: string[] },
): string[] {
  const mapping = session?.stage2.find((r) => r.reviewer === review.reviewer)?.labelToModel;
  return review.ranking.map((label) => {
    const member = mapping?.[label]?.model;
    return member ? `${label}: ${member}` : label;
  });
}

/** The reviews of a finished session, labels de-anonymised, in the order of its stage 2. */
export function sessionReviews(session: SessionDocument): {
  reviewer: string;
  model: string;
  ranking: string[];
  scores: Record<string, number> | null;
  failure: string | null;
}[] {
  return session.stage2.map((r) => {
    const labelOf = new Map(Object.entries(r.labelToModel).map(([label, entry]) => [entry.model, label]));
    const ranking = (r.evaluation?.ranking ?? []).map((member) => {
      const label = labelOf.get(member);
      return label ? `${label}: ${member}` : member;
    });
    return {
      reviewer: r.reviewer,
      model: r.model,
      ranking,
      scores: r.evaluation?.scores ?? null,
      failure: r.error ? `${r.error.reason}: ${r.error.message}` : r.evaluation?.abstained ? 'abstained' : null,
    };
  });
}

/** A weight as a whole percentage ("60%"). */
export function percent(weight: number): string {
  return `${Math.round(weight * 100)}%`;
}
