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
  /** Two answers and which one people preferred (index 0 or 1, or a tie). */
  preference?: { answers: readonly [string, string]; preferred: 0 | 1 | 'tie' };
  /** One answer and the score people gave it, on the reviewers' 1–10 scale. */
  humanScore?: { answer: string; score: number };
}

/** Whether a council runs for the item: it has something to check a council's answers against. */
export const runsCouncil = (item: EvalItem): boolean => item.accept !== undefined || item.reference !== undefined;

/** Whether the reviewers judge the item's own answers (a human preference or a human score). */
export const hasJudging = (item: EvalItem): boolean => item.preference !== undefined || item.humanScore !== undefined;
