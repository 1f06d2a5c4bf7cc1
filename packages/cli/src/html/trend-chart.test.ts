import { describe, expect, it } from 'vitest';
import { axisLines, renderTrendChart } from './trend-chart.js';

describe('axisLines (the trend chart’s upright y label)', () => {
  // A trend chart has 220 − 12 − 40 = 168 units of height beside its plot: 168 / 6.5 → 25 characters a line.
  it('keeps a label of up to 25 characters on one line', () => {
    expect(axisLines('spread of the effects', 168)).toEqual(['spread of the effects']);
    expect(axisLines('x'.repeat(25), 168)).toEqual(['x'.repeat(25)]);
  });

  it('splits a longer one at the space nearest its middle', () => {
    // 40 characters, middle 20; spaces at 12, 24 and 31: 24 is nearest.
    expect(axisLines('length–score correlation within sessions', 168)).toEqual([
      'length–score correlation',
      'within sessions',
    ]);
    // 30 characters, middle 15; spaces at 6, 9, 13 and 22: 13 is nearest.
    expect(axisLines('spread of the position effects', 168)).toEqual(['spread of the', 'position effects']);
  });

  it('shortens a line still over 25 characters to its first 12 and last 12 around an ellipsis', () => {
    expect(axisLines('abcdefghijklmnopqrstuvwxyz0123', 168)).toEqual(['abcdefghijkl…stuvwxyz0123']);
  });

  it('draws the second line 14 units left of the first, and moves the plot 14 units right to make room', () => {
    const chart = (yLabel: string) =>
      renderTrendChart({
        id: 't',
        title: 't',
        description: 'd',
        yLabel,
        points: [{ at: '2026-11-01T00:00:00Z', estimate: 0.5, ciLower: 0.2, ciUpper: 0.8 }],
      });
    const one = chart('position spread');
    expect(one).toContain('translate(14 ');
    expect(one).not.toContain('translate(28 ');
    expect(one).toContain('<line class="reference" x1="56"');
    const two = chart('length–score correlation within sessions');
    expect(two).toContain('translate(14 96) rotate(-90)" text-anchor="middle">length–score correlation</text>');
    expect(two).toContain('translate(28 96) rotate(-90)" text-anchor="middle">within sessions</text>');
    expect(two).toContain('<line class="reference" x1="70"');
  });
});
