import { describe, expect, it } from 'vitest';
import { CONTRIBUTION_PLANTS } from './contribution-plants.js';
import { studyContributionCoverage, trueMeanWeights } from './contribution-study.js';

// The short version of `pnpm --filter @council/bias-audit study:contributions` (2,000 runs a row in the README):
// 150 runs at 10 sessions of each plant. The bounded-mean interval must keep its pooled coverage's Wilson
// interval above 93% (it was 97–99% in the full study), while the Student t interval on the same weights is
// shown to fall short, which is why it is not the method.
describe('influence-share interval coverage (short study)', () => {
  for (const plant of CONTRIBUTION_PLANTS) {
    it(`${plant.name}: covers the true mean weight at 10 sessions`, () => {
      const truth = trueMeanWeights(plant, { count: 40_000, seed: 7 });
      const [wilson, student] = studyContributionCoverage({ plant, sessions: 10, runs: 150, truth });
      expect(wilson!.method).toBe('bounded-wilson');
      expect(wilson!.upper).toBeGreaterThan(0.95);
      expect(wilson!.lower).toBeGreaterThan(0.93);
      expect(student!.upper).toBeLessThan(0.93);
    });
  }
});
