import { describe, expect, it } from 'vitest';
import { COVERAGE_TARGET, coverageVerdict, formatCoverageTable } from './eval-interval-coverage-study.js';

// The rates' Wilson 95% intervals are worked by hand (z = 1.96, 400 datasets). The verdict reads the rate against the
// band, with '?' where the interval reaches across an edge.
describe('coverageVerdict', () => {
  it('passes a rate in the band, with ? while the interval reaches outside it', () => {
    // 380 of 400: 95%, Wilson [92.40, 96.74]% reaches across both edges of 93.5–96.5%.
    expect(coverageVerdict({ rate: 0.95, lower: 0.924, upper: 0.9674, target: COVERAGE_TARGET })).toBe('pass?');
    expect(coverageVerdict({ rate: 0.95, lower: 0.94, upper: 0.96, target: COVERAGE_TARGET })).toBe('pass');
  });

  it("fails a rate outside the band: certain ('FAIL') only when the whole interval lies outside", () => {
    // 360 of 400: 90%, Wilson upper end 93.57% — still above 93.5%, so these runs cannot tell.
    expect(coverageVerdict({ rate: 0.9, lower: 0.8767, upper: 0.9357, target: COVERAGE_TARGET })).toBe('FAIL?');
    // 350 of 400: 87.5%, Wilson upper end 90.39%: wholly below.
    expect(coverageVerdict({ rate: 0.875, lower: 0.839, upper: 0.9039, target: COVERAGE_TARGET })).toBe('FAIL');
    // Over-covering: 399 of 400, Wilson [98.60, 99.96]%, wholly above 96.5% but within a cap of 100%.
    expect(coverageVerdict({ rate: 0.9975, lower: 0.986, upper: 0.9996, target: COVERAGE_TARGET })).toBe('FAIL');
    expect(coverageVerdict({ rate: 0.9975, lower: 0.986, upper: 0.9996, target: { min: 0.935, max: 1 } })).toBe('pass');
  });
});

describe('formatCoverageTable', () => {
  it('prints each row with its rate, Wilson interval, target and verdict', () => {
    const table = formatCoverageTable(
      [
        {
          part: 'share',
          name: '19 items, 95% correct',
          method: 'percentile bootstrap',
          replaced: true,
          hits: 1935,
          runs: 2000,
          rate: 0.9675,
          lower: 0.959,
          upper: 0.974,
          target: COVERAGE_TARGET,
          verdict: 'FAIL?',
          detail: 'a | b',
        },
      ],
      'markdown',
    );
    expect(table.split('\n')[2]).toBe(
      '| share | 19 items, 95% correct | percentile bootstrap (replaced) | 1935 | 2000 | 96.75% | 95.9–97.4% | 93.5–96.5% | FAIL? | a \\| b |',
    );
  });
});
