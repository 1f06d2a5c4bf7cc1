/** A juror's (or the chairman's) decision in jury mode. */
export type JuryDecision = 'approve' | 'reject' | 'unclear';

/** The jury decisions, in the order they are listed. */
export const juryDecisions: readonly JuryDecision[] = ['approve', 'reject', 'unclear'];

/**
 * Jury mode (`verdict`): `binary` decides approve or reject by the weighted majority and says `unclear` on an exact
 * tie; `tie-breaker` lets the chairman's own decision break an exact tie. See `decideVerdict`.
 */
export type VerdictMode = 'binary' | 'tie-breaker';

/** The verdict modes, for option checks and help texts. */
export const verdictModes: readonly VerdictMode[] = ['binary', 'tie-breaker'];
