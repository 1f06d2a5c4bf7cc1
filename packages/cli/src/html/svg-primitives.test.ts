import { describe, expect, it } from 'vitest';
import { leastSquares } from './scatter-chart.js';
import { escapeXml, extent, formatNumber, linearScale, niceTicks } from './svg-primitives.js';

describe('chart primitives', () => {
  it('escapes the five XML specials, so a model id cannot inject markup', () => {
    expect(escapeXml(`<script>"a" & 'b'</script>`)).toBe(
      '&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;',
    );
  });

  it('maps a domain onto a range linearly, and widens an empty domain instead of dividing by zero', () => {
    const s = linearScale([0, 10], [100, 200]);
    expect(s(0)).toBe(100);
    expect(s(2.5)).toBe(125);
    expect(s(10)).toBe(200);
    const flat = linearScale([3, 3], [0, 100]);
    expect(flat(3)).toBe(50);
  });

  it('chooses 1-2-5 ticks', () => {
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    // (0.45 − (−0.3)) / 6 = 0.125 → step 0.2; first tick ceil(−0.3 / 0.2) × 0.2 = −0.2.
    expect(niceTicks(-0.3, 0.45, 6)).toEqual([-0.2, 0, 0.2, 0.4]);
    expect(niceTicks(1, 1)).toEqual([1]);
  });

  it('pads the extent by 5% and includes the reference value', () => {
    expect(extent([2, 4], 0)).toEqual([-0.2, 4.2]);
    expect(extent([])).toEqual([0, 1]);
  });

  it('formats negatives with a true minus sign and missing values as n/a', () => {
    expect(formatNumber(-0.1234, 2)).toBe('−0.12');
    expect(formatNumber(-0.001, 2)).toBe('0.00');
    expect(formatNumber(null)).toBe('n/a');
    expect(formatNumber(Number.NaN)).toBe('n/a');
  });

  it('fits least squares exactly on collinear points, and refuses when x has no spread', () => {
    // y = 1 + 2x through (0,1), (1,3), (2,5).
    expect(
      leastSquares([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 5 },
      ]),
    ).toEqual({ slope: 2, intercept: 1 });
    expect(
      leastSquares([
        { x: 1, y: 1 },
        { x: 1, y: 2 },
      ]),
    ).toBeNull();
  });
});
