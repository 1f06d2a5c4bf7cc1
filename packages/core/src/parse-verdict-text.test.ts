import { describe, expect, it } from 'vitest';
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
