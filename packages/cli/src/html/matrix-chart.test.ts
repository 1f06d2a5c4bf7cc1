import { describe, expect, it } from 'vitest';
import { renderMatrixChart } from './matrix-chart.js';

function frame(labels: string[]): string {
  const svg = renderMatrixChart({
    id: 'm',
    title: 't',
    description: 'd',
    reviewers: labels,
    candidates: labels,
    values: labels.map(() => labels.map(() => 0.1)),
  });
  return /viewBox="([^"]+)"/.exec(svg)?.[1] ?? '';
}

describe('renderMatrixChart: room for the slanted column labels', () => {
  it('keeps the 110-unit header and right margin for short ids (170 + 3 × 54 + 110 wide, 110 + 3 × 54 + 16 high)', () => {
    expect(frame(['alpha', 'bravo', 'delta'])).toBe('0 0 442 288');
  });

  it('grows both for 22-character labels: 22 × 6.5 × cos 45° = 101.1 → 102, header 102 + 24, right 102 + 16', () => {
    const long = ['openrouter/anthropic/claude-3.7', 'openrouter/google/gemini-2.5', 'openrouter/qwen/qwen-2.5-72b'];
    // Each is cut to 22 characters (21 and an ellipsis) before it is drawn.
    expect(frame(long)).toBe(`0 0 ${170 + 3 * 54 + 118} ${126 + 3 * 54 + 16}`);
  });
});
