import { createLabelToModel } from './label-to-model.js';
import type { LabelToModel } from './label-to-model.js';

/** The answers one reviewer sees, under labels instead of member ids. */
export interface AnonymisedAnswers {
  /** `{ "Response A": { model: <member id>, displayIndex: 0 }, … }`. */
  labelToModel: LabelToModel;
  /** The labels in display order. */
  labels: string[];
  /** Each label with its answer's text, in display order. */
  entries: Array<{ label: string; text: string }>;
}

/** Labels the answers by display position (`Response A` is shown first), in the order `shown` gives. */
export function anonymiseAnswers(shown: readonly string[], answers: ReadonlyMap<string, string>): AnonymisedAnswers {
  const labelToModel = createLabelToModel(shown);
  const labels = Object.keys(labelToModel);
  const entries = labels.map((label) => ({ label, text: answers.get(labelToModel[label]!.model)! }));
  return { labelToModel, labels, entries };
}
