import { describe, expect, it } from 'vitest';
import { fitLabel, renderIntervalChart } from './interval-chart.js';

describe('fitLabel', () => {
  it('keeps a label of up to 26 characters whole', () => {
    expect(fitLabel('simulated:dmitri')).toBe('simulated:dmitri');
    expect(fitLabel('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghijklmnopqrstuvwxyz');
  });

  it('cuts a longer one to its first 11 and last 14 characters around an ellipsis (26 in all)', () => {
    // 'openrouter/' is the first 11 characters; 'sonnet:thinking' is 15, so the last 14 are 'onnet:thinking'.
    expect(fitLabel('openrouter/anthropic/claude-3.7-sonnet:thinking')).toBe('openrouter/…onnet:thinking');
    expect(fitLabel('abcdefghijklmnopqrstuvwxyz0')).toBe('abcdefghijk…nopqrstuvwxyz0');
    expect([...fitLabel('x'.repeat(100))]).toHaveLength(26);
  });

  it('is what the chart prints, while the row’s tooltip keeps the whole id', () => {
    const svg = renderIntervalChart({
      id: 'c',
      title: 't',
      description: 'd',
      axisLabel: 'a',
      rows: [{ label: 'openrouter/google/gemini-2.5-pro-preview-05-06', estimate: 0, ciLower: -1, ciUpper: 1, n: 3 }],
    });
    expect(svg).toContain('>openrouter/…-preview-05-06</text>');
    expect(svg).toContain('<title>openrouter/google/gemini-2.5-pro-preview-05-06: ');
  });
});
