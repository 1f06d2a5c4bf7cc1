import { describe, expect, it } from 'vitest';
import { effectiveSampleWilsonInterval, logitTMeanInterval, studentTMeanInterval } from './comparison-intervals.js';

// Worked by hand for the weights 0.2, 0.4, 0.6: mean 0.4, s² = (0.04 + 0 + 0.04)/2 = 0.04, p(1 − p) = 0.24,
// z = 1.959964, t(0.975, 2) = 4.302653 (tables).
describe('the contribution study’s comparison intervals', () => {
  const values = [0.2, 0.4, 0.6];

  it('Student t: 0.4 ± 4.302653·0.2/√3 = 0.4 ± 0.496828, clipped to [0, 0.896828]', () => {
    const i = studentTMeanInterval(values);
    expect(i.lower).toBe(0);
    expect(i.upper).toBeCloseTo(0.896828, 5);
  });

  it('effective-n Wilson: n = 3·0.24/0.04 = 18, times (1.959964/4.302653)² = 0.207502 → 3.735047; Wilson at 0.4 of it: [0.098202, 0.803202]', () => {
    const i = effectiveSampleWilsonInterval(values);
    expect(i.lower).toBeCloseTo(0.098202, 5);
    expect(i.upper).toBeCloseTo(0.803202, 5);
  });

  it('logit t: logit 0.4 = −0.405465 ± 4.302653·0.115470/0.24 = ±2.070113 → [0.077588, 0.840861]', () => {
    const i = logitTMeanInterval(values);
    expect(i.lower).toBeCloseTo(0.077588, 5);
    expect(i.upper).toBeCloseTo(0.840861, 5);
  });

  it('fall back to Wilson at n where the variance says nothing: all zeros of 5 give [0, z²/(5 + z²)] = [0, 0.434482]', () => {
    for (const interval of [effectiveSampleWilsonInterval, logitTMeanInterval]) {
      const i = interval([0, 0, 0, 0, 0]);
      expect(i.lower).toBe(0);
      expect(i.upper).toBeCloseTo(0.434482, 5);
    }
  });
});
