import type { Ballot, CandidateOptions } from './ballot.js';
import { candidatesFromBallots } from './prepare-ballots.js';
import { ScoringError } from './scoring-error.js';

/** Options of the Condorcet methods and the agreement measures: `candidates` may be left out. */
export type OptionalCandidateOptions = Partial<CandidateOptions>;

/** Fills in `candidates` from the ballots when the caller left them out. Internal. */
export function withCandidates(
  ballots: readonly Ballot[],
  options: OptionalCandidateOptions,
  where: string,
): CandidateOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ScoringError({ code: 'INVALID_OPTION', message: `${where}: options must be an object (or left out).` });
  }
  return { ...options, candidates: options.candidates ?? candidatesFromBallots(ballots, where) };
}
