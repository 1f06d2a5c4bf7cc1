import { existsSync, readFileSync } from 'node:fs';
import type { sessionDocument } from '../session-document.js';
import type { EvalCostCapLine } from './eval-item-budget.js';

/** One reviewer's judgement of an item's own answers: which of two it prefers, or the score it gives one. */
export interface EvalJudgement {
  reviewer: string;
  kind: 'preference' | 'score';
  /** Preference: the answer the reviewer put first (0 or 1 as the dataset numbers them), `tie` for equal scores; null when its review could not be read. */
  preferred?: 0 | 1 | 'tie' | null;
  /** Preference: which answer (as the dataset numbers them) was shown first (with --both-orders, in the first review). */
  shown_first?: 0 | 1;
  /** Preference with --both-orders, both reviews read: whether it chose the same answer both ways round. */
  consistent?: boolean;
  /** Score: the 1–10 score the reviewer gave the answer; null when its review could not be read. */
  score?: number | null;
  cost_usd: number | null;
  error: string | null;
}

/** A reference-only item's grade of one answer (a member's, or `council` for the synthesis). */
export interface EvalGrade {
  target: string;
  /** Null when the grader's reply said neither CORRECT nor INCORRECT, or the call failed. */
  correct: boolean | null;
  /** Who graded: a model id (the chairman's or `--grader`'s), or `simulated` (the demo's grader). */
  grader: string;
  /** What the grader's call cost; null when not reported (absent in journals written before it was recorded). */
  cost_usd?: number | null;
  error: string | null;
}

/** One line of an eval run's journal: everything measured for one item, written whole when the item is done. */
export interface EvalJournalLine {
  item_id: string;
  /** The council's session, for items with key content or a reference answer; null otherwise, or when it failed. */
  session: ReturnType<typeof sessionDocument> | null;
  grades: EvalGrade[];
  judgements: EvalJudgement[];
  /** Only under a cost cap (`--max-cost`, `max_cost_usd`): what the item's calls cost and the call it stopped before. */
  cost_cap?: EvalCostCapLine;
  /** Why the item failed (it runs again on --resume); null when done. */
  error: string | null;
}

/**
 * The journal's completed items, by id: the first line of each item with no error. A torn last line (a crash while
 * writing) and a later line for an item already done (a second run that raced, a hand-edited file) are ignored, so
 * nothing is counted twice.
 */
export function readEvalJournal(path: string): Map<string, EvalJournalLine> {
  const done = new Map<string, EvalJournalLine>();
  if (!existsSync(path)) return done;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    let line: Partial<EvalJournalLine>;
    try {
      line = JSON.parse(text) as Partial<EvalJournalLine>;
    } catch {
      continue;
    }
    if (typeof line.item_id !== 'string' || line.error !== null || done.has(line.item_id)) continue;
    done.set(line.item_id, line as EvalJournalLine);
  }
  return done;
}
