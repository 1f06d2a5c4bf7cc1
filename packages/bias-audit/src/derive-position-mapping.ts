/**
 * Reads `{ model: position }` from a stage-2 `labelToModel` map. Two formats are understood, per
 * ADR-015/017: the enhanced `{ "Response A": { model, displayIndex } }` (also `display_index`) and the
 * legacy `{ "Response C": "google/gemini" }`, where the label's final letter gives the position
 * (A → 0, B → 1, …, case-insensitive). Entries that match neither are skipped, never guessed.
 */
export function derivePositionMapping(labelToModel: Readonly<Record<string, unknown>>): Record<string, number> {
  const mapping: Record<string, number> = {};
  if (typeof labelToModel !== 'object' || labelToModel === null) return mapping;
  for (const [label, value] of Object.entries(labelToModel)) {
    if (typeof value === 'object' && value !== null) {
      const entry = value as Record<string, unknown>;
      const model = entry['model'];
      const index = entry['displayIndex'] ?? entry['display_index'];
      if (
        typeof model === 'string' &&
        model !== '' &&
        typeof index === 'number' &&
        Number.isInteger(index) &&
        index >= 0
      ) {
        mapping[model] = index;
      }
      continue;
    }
    if (typeof value !== 'string' || value === '') continue;
    const match = /^\s*(?:response\s+)?([a-z])\s*$/i.exec(label);
    if (match) mapping[value] = match[1]!.toUpperCase().charCodeAt(0) - 65;
  }
  return mapping;
}
