import { countNoun } from '../count-noun.js';
import { COST_CAP_SKIPPED, usd } from './eval-item-budget.js';
import type { EvalJournalLine } from './eval-journal.js';

/** What an eval run's done items cost, in US dollars: their sessions, the grader's and the judges' calls. */
export interface EvalCost {
  /** Sessions + grading + judging; null when no provider reported a cost. */
  totalUsd: number | null;
  sessionsUsd: number | null;
  gradingUsd: number | null;
  judgingUsd: number | null;
  /** Sessions, and grading and judging calls made, whose cost no provider reported (not in the sums). */
  unreported: number;
  /** The cost cap (`--max-cost`) each item ran under, when one did. */
  maxCostUsd: number | null;
  /** Items the cost cap stopped before all their calls were made. */
  itemsCapped: number;
  /** Grades and judgements the cap stopped before they were made (a judgement of a pair shown both ways round is one). */
  notMade: number;
}

/**
 * The run's cost from its journal's done lines (each item once, however often it was run with --resume): every
 * session's reported cost, and every grading and judging call's; a call the cost cap stopped costs nothing.
 */
export function evalCost(lines: readonly EvalJournalLine[]): EvalCost {
  let unreported = 0;
  let notMade = 0;
  // No calls of a kind cost nothing; calls of which none reported a cost, an unknown amount (null).
  const sum = (values: readonly (number | null | undefined)[]): number | null => {
    let total: number | null = values.length === 0 ? 0 : null;
    for (const v of values) {
      if (v === null || v === undefined) unreported++;
      else total = (total ?? 0) + v;
    }
    return total;
  };
  const sessionsUsd = sum(lines.flatMap((l) => (l.session === null ? [] : [l.session.usage.costUsd])));
  // An entry the cap stopped costs what was made of it (a pair's first order), and is counted as not made.
  const costs = (entries: readonly { error: string | null; cost_usd?: number | null }[]) =>
    entries.map((e) => {
      if (e.error !== COST_CAP_SKIPPED) return e.cost_usd;
      notMade++;
      return e.cost_usd ?? 0;
    });
  const gradingUsd = sum(costs(lines.flatMap((l) => l.grades)));
  const judgingUsd = sum(costs(lines.flatMap((l) => l.judgements)));
  const parts = [sessionsUsd, gradingUsd, judgingUsd].filter((v) => v !== null);
  const caps = lines.flatMap((l) => (l.cost_cap === undefined ? [] : [l.cost_cap.max_cost_usd]));
  return {
    totalUsd: parts.length === 0 ? null : parts.reduce((a, b) => a + b, 0),
    sessionsUsd,
    gradingUsd,
    judgingUsd,
    unreported,
    maxCostUsd: caps.length === 0 ? null : Math.max(...caps),
    itemsCapped: lines.filter((l) => l.cost_cap?.stopped_before != null).length,
    notMade,
  };
}

/** The run's cost in a sentence, and what the cap stopped. */
export function evalCostSentence(cost: EvalCost): string {
  const amount = (v: number | null) => (v === null ? 'not reported' : usd(v));
  const parts = `${amount(cost.sessionsUsd)} for the sessions, ${amount(cost.gradingUsd)} for grading and ${amount(cost.judgingUsd)} for the judges' reviews`;
  const total =
    cost.totalUsd === null
      ? `No provider reported a cost, so the run's cost is unknown.`
      : `The run cost ${usd(cost.totalUsd)}: ${parts}${cost.unreported > 0 ? ` (${countNoun(cost.unreported, 'session or call', 'sessions or calls')} reported no cost and ${cost.unreported === 1 ? 'is' : 'are'} not counted)` : ''}.`;
  if (cost.itemsCapped === 0) return total;
  return `${total} The cost cap of ${usd(cost.maxCostUsd ?? 0)} an item stopped ${countNoun(cost.itemsCapped, 'item')} before all ${cost.itemsCapped === 1 ? 'its' : 'their'} calls were made: ${countNoun(cost.notMade, 'grade or judgement', 'grades or judgements')} not made, counted neither right nor wrong.`;
}
