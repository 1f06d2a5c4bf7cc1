import { describe, expect, it } from 'vitest';
import { describeReason } from './assemble-verdict.js';
import { parseVerdictText } from './parse-verdict-text.js';

describe('parseVerdictText', () => {
  it('reads the decision line, the rationale and the dissent section', () => {
    const text =
      'Decision: approve\n\nThe change is small and covered by tests.\n\n## Dissent\n\nThe migration is not reversible.';
    expect(parseVerdictText(text)).toEqual({
      decision: 'approve',
      rationale: 'The change is small and covered by tests.',
      dissent: 'The migration is not reversible.',
    });
  });

  it('accepts bold forms and an inline Dissent: line', () => {
    expect(parseVerdictText('**Decision:** Reject\nBreaks the API.\n**Dissent:** it is behind a flag.')).toEqual({
      decision: 'reject',
      rationale: 'Breaks the API.',
      dissent: 'it is behind a flag.',
    });
  });

  it('gives nulls when the chairman wrote neither', () => {
    expect(parseVerdictText('Merge it.')).toEqual({ decision: null, rationale: 'Merge it.', dissent: null });
  });
});

describe('describeReason', () => {
  it('says each reason in words, with the margin signed', () => {
    const rule = { minMargin: 0.1, quorum: 2 };
    expect(describeReason({ reason: 'majority', margin: -1 / 9, decided: 3 }, rule)).toBe(
      'weighted majority, margin −0.11',
    );
    expect(describeReason({ reason: 'below-margin', margin: 0.05, decided: 3 }, rule)).toBe(
      'margin +0.05 is below the threshold 0.10',
    );
    expect(describeReason({ reason: 'no-quorum', margin: 0, decided: 0 }, rule)).toBe(
      'no member decided approve or reject; the quorum is 2',
    );
    expect(describeReason({ reason: 'no-quorum', margin: 1, decided: 1 }, rule)).toBe(
      'only 1 member decided approve or reject; the quorum is 2',
    );
  });
});
