import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseContributors } from './parse-contributors.js';

const members = ['compliance_bot', 'creative_bot', 'cost_bot'];

describe('parseContributors', () => {
  it('reads the design document’s example block, removes it, and keeps weights that already sum to 1', () => {
    const text = `Adopt the regulated rollout with the new UI.

\`\`\`json
{
  "contributors": [
    {"id": "compliance_bot", "weight": 0.8, "reason": "Provided critical regulatory framework"},
    {"id": "creative_bot", "weight": 0.2, "reason": "Suggested the novel UI approach"}
  ]
}
\`\`\``;
    const parsed = parseContributors(text, members);
    expect(parsed.text).toBe('Adopt the regulated rollout with the new UI.');
    expect(parsed.contributors).toEqual([
      { id: 'compliance_bot', weight: 0.8, reason: 'Provided critical regulatory framework' },
      { id: 'creative_bot', weight: 0.2, reason: 'Suggested the novel UI approach' },
    ]);
    expect(parsed.warnings).toEqual([]);
  });

  it('normalises weights to sum to 1: 3 and 1 become 0.75 and 0.25', () => {
    const parsed = parseContributors(
      'Answer.\n{"contributors": [{"id": "cost_bot", "weight": 3}, {"id": "creative_bot", "weight": "1"}]}',
      members,
    );
    expect(parsed.contributors).toEqual([
      { id: 'cost_bot', weight: 0.75, reason: '' },
      { id: 'creative_bot', weight: 0.25, reason: '' },
    ]);
    expect(parsed.text).toBe('Answer.');
  });

  it('drops unknown ids and duplicates with warnings, and reads the winner in voting mode', () => {
    const parsed = parseContributors(
      'X\n```json\n{"winner": "Cost_Bot", "contributors": [{"id": "ghost", "weight": 1}, {"id": "cost_bot", "weight": 1}, {"id": "cost_bot", "weight": 5}]}\n```',
      members,
    );
    expect(parsed.contributors).toEqual([{ id: 'cost_bot', weight: 1, reason: '' }]);
    expect(parsed.winner).toBe('cost_bot');
    expect(parsed.warnings).toHaveLength(2);
  });

  it('keeps the synthesis and reports absent attribution when the block is missing or broken', () => {
    const missing = parseContributors('Just an answer.', members);
    expect(missing).toEqual({
      text: 'Just an answer.',
      contributors: null,
      winner: null,
      warnings: ['the chairman gave no contributors block; attribution is absent.'],
    });
    const broken = parseContributors(
      'Answer.\n```json\n{"contributors": [{"id": "cost_bot", "weight": 1}\n```',
      members,
    );
    expect(broken.contributors).toBeNull();
    expect(broken.text).toContain('Answer.');
    const zero = parseContributors('A\n{"contributors": [{"id": "cost_bot", "weight": 0}]}', members);
    expect(zero.contributors).toBeNull();
    expect(zero.text).toBe('A');
  });

  it('never throws and always returns weights summing to 1 when it returns any', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const parsed = parseContributors(text, members);
        if (parsed.contributors) expect(parsed.contributors.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 12);
      }),
    );
  }, 30_000);
});
