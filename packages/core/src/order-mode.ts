/**
 * How stage 2 orders the answers for each reviewer (ADR-017): `shared` — one shuffle that every
 * reviewer sees; `per-reviewer` — an independent shuffle for each reviewer; `latin-square` — rows of a
 * balanced Latin square (Williams design), so each answer is shown in each position equally often across
 * reviewers when the counts allow, with first-order carry-over balanced too.
 */
export type OrderMode = 'shared' | 'per-reviewer' | 'latin-square';

/** Every order mode, for validation messages and option parsing. */
export const orderModes: readonly OrderMode[] = ['shared', 'per-reviewer', 'latin-square'];
