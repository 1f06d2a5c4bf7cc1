/**
 * One reviewer's verdict in one session.
 *
 * A self-vote is a ballot's entry for the candidate whose id equals `reviewer` (or, when the caller
 * passes `authorOf`, whose author is `reviewer`).
 */
export interface Ballot {
  /** The reviewing member's id. */
  reviewer: string;
  /** Candidate ids, best first; may be partial. Pass `[]` when the reviewer gave only scores. */
  ranking: readonly string[];
  /** Optional raw scores (e.g. 1–10). Used only when `ranking` is empty, and for diagnostics. */
  scores?: Readonly<Record<string, number>>;
  /** An abstaining ballot is skipped entirely. */
  abstained?: boolean;
  /** Default 1; 0 = advisory (counted in diagnostics, not in scores). Must be finite and ≥ 0, and the weights of a call must add up to a finite number. */
  weight?: number;
}

/** Which candidates the ballots are about, and how self-votes are treated. */
export interface CandidateOptions {
  /** Every candidate id, each once. Ballot entries naming anything else are dropped. */
  candidates: readonly string[];
  /** Default `true`: a reviewer's entry for its own candidate is removed before positions are counted. */
  excludeSelfVotes?: boolean;
  /** Maps each candidate id to the reviewer id that wrote it; without it a candidate's author is its own id. */
  authorOf?: Readonly<Record<string, string>>;
}
