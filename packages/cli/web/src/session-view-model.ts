import type { Mode, SessionDocument, Stage2Result } from './types.js';

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

/** What a reviewer said of one answer: its score and critique, under the label it saw the answer by. */
export interface AnswerEvaluation {
  /** The member after the session; the label alone while it runs. */
  member: string | null;
  label: string | null;
  /** The reviewer's own answer. */
  own: boolean;
  score: number | null;
  strengths: string | null;
  weaknesses: string | null;
}

/**
 * A finished review's evaluation of each answer, in the order the reviewer saw them (else the stage-1 order), as
 * `history show --show reviews` prints it: the member, the label it was shown under, its score and critique.
 */
export function reviewEvaluations(session: SessionDocument, review: Stage2Result): AnswerEvaluation[] {
  const evaluation = review.evaluation;
  if (evaluation === null) return [];
  const critiques = evaluation.critiques ?? {};
  const labelOf = new Map(Object.entries(review.labelToModel).map(([label, entry]) => [entry.model, label]));
  const seen =
    review.order && review.order.length > 0
      ? review.order
      : session.stage1.map((a) => a.member).filter((m) => m in evaluation.scores || m in critiques);
  return seen.flatMap((member) => {
    const score = evaluation.scores[member];
    const critique = critiques[member];
    if (score === undefined && critique === undefined) return [];
    const text = (t: string | undefined) => (t === undefined || t.trim() === '' ? null : t.trim());
    return [
      {
        member,
        label: labelOf.get(member) ?? null,
        own: member === review.reviewer,
        score: score ?? null,
        strengths: text(critique?.strengths),
        weaknesses: text(critique?.weaknesses),
      },
    ];
  });
}

/** The reviews of a finished session, labels de-anonymised, in the order of its stage 2. */
export function sessionReviews(session: SessionDocument): {
  reviewer: string;
  model: string;
  ranking: string[];
  scores: Record<string, number> | null;
  evaluations: AnswerEvaluation[];
  /** Its reply as written, under the labels it saw. */
  text: string | null;
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
      evaluations: reviewEvaluations(session, r),
      text: r.text ?? null,
      failure: r.error ? `${r.error.reason}: ${r.error.message}` : r.evaluation?.abstained ? 'abstained' : null,
    };
  });
}

/** A weight as a whole percentage ("60%"). */
export function percent(weight: number): string {
  return `${Math.round(weight * 100)}%`;
}
