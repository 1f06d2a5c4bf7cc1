import type { SessionEvaluation } from './council-session.js';
import type { LabelToModel } from './label-to-model.js';
import type { Critique, ParsedEvaluation } from './parse-evaluation.js';

/** A parsed evaluation with its labels turned back into member ids. */
export function evaluationByMember(parsed: ParsedEvaluation, labelToModel: LabelToModel): SessionEvaluation {
  const toId = (label: string): string => labelToModel[label]!.model;
  const scores: Record<string, number> = {};
  for (const [label, score] of Object.entries(parsed.scores)) scores[toId(label)] = score;
  const critiques: Record<string, Critique> = {};
  for (const [label, critique] of Object.entries(parsed.critiques)) critiques[toId(label)] = critique;
  return { ranking: parsed.ranking.map(toId), scores, critiques, abstained: parsed.abstained, format: parsed.format };
}
