import { responseLabel } from './response-label.js';

/** One label's entry in ADR-017's enhanced mapping: the member behind the label and where it was shown. */
export interface LabelEntry {
  model: string;
  displayIndex: number;
}

/** ADR-017's enhanced `label_to_model` format: `{ "Response A": { model, displayIndex: 0 }, … }`. */
export type LabelToModel = Record<string, LabelEntry>;

/** Labels a presentation order: the i-th shown answer gets `responseLabel(i)` and `displayIndex` i. */
export function createLabelToModel(order: readonly string[]): LabelToModel {
  const mapping: LabelToModel = {};
  order.forEach((model, displayIndex) => {
    mapping[responseLabel(displayIndex)] = { model, displayIndex };
  });
  return mapping;
}
