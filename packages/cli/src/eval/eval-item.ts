/** A phrase to find in an answer: plain text (case and spacing ignored) or a regular expression given as `/…/flags`. */
export type KeyPattern = { kind: 'phrase'; text: string } | { kind: 'regex'; source: string; flags: string };

/** Key content an answer must carry to count as correct: every `allOf` pattern and, when given, one of `anyOf`. */
export interface AcceptRule {
  anyOf: readonly KeyPattern[];
  allOf: readonly KeyPattern[];
}

/** One item of an eval dataset, as `readEvalDataset` returns it (camelCase; the file's fields are snake_case). */
export interface EvalItem {
  id: string;
  /** The line of the file it came from (JSONL line, or CSV record's first line). */
  line: number;
  question: string;
  /** A reference answer: graded by the chairman or `--grader` where no `accept` rule is given. */
  reference?: string;
  /** Deterministic key-content check. */
  accept?: AcceptRule;
  /**
   * Two answers and which one people preferred (index 0 or 1, or a tie): the majority of `votes` (a tie when they
   * split evenly). `votes` holds each person's vote, or the one preference the dataset gave.
   */
  preference?: { answers: readonly [string, string]; preferred: 0 | 1 | 'tie'; votes: readonly (0 | 1 | 'tie')[] };
  /** One answer and the score people gave it, on the reviewers' 1–10 scale. */
  humanScore?: { answer: string; score: number };
}

/** Whether a council runs for the item: it has something to check a council's answers against. */
export const runsCouncil = (item: EvalItem): boolean => item.accept !== undefined || item.reference !== undefined;

/** Whether the reviewers judge the item's own answers (a human preference or a human score). */
export const hasJudging = (item: EvalItem): boolean => item.preference !== undefined || item.humanScore !== undefined;

/** The majority of people's votes on a pair: the answer more of them preferred, `tie` when the votes for each are equal. */
export function majorityVote(votes: readonly (0 | 1 | 'tie')[]): 0 | 1 | 'tie' {
  const first = votes.filter((v) => v === 0).length;
  const second = votes.filter((v) => v === 1).length;
  return first > second ? 0 : second > first ? 1 : 'tie';
}

/** Whether people agree on a clear winner: every vote names the same answer (not a tie). */
export const peopleAgree = (votes: readonly (0 | 1 | 'tie')[]): boolean =>
  votes.length > 0 && votes[0] !== 'tie' && votes.every((v) => v === votes[0]);
