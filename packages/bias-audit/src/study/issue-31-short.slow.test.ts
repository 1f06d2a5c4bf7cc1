import { describe, expect, it } from 'vitest';
import { ISSUE_31_SCENARIOS, runIssue31Scenario } from './issue-31-study.js';

// The short version of issue 31's study (`pnpm --filter @council/bias-audit study:issue-31` runs the full one; its
// table is in the README): every scenario with a fifth of its runs (at least 20) and 200 bootstrap replicates. A row
// fails here only when its Wilson 95% interval lies wholly outside the target ('FAIL'). The pooled intervals where
// five reviewers are graded −0.2…+0.2 (pooling-graded-50, once a known limit here at 89%) carry the robust centre's
// error since issue 31's pooled-centre change and meet the target. n_eff's and the pairs' coverage at 20 sessions is
// measured, not a target (claimed from 50 sessions; the report says so below).

describe("issue 31's study, short (a fifth of the runs)", () => {
  for (const scenario of ISSUE_31_SCENARIOS) {
    it(`${scenario.name}: no target clearly missed`, () => {
      const rows = runIssue31Scenario(scenario, { runs: Math.max(20, Math.round(scenario.runs / 5)), resamples: 200 });
      const missed = rows
        .filter((row) => row.verdict === 'FAIL')
        .map(
          (row) => `${row.metric}: ${row.rate === null ? 'n/a' : (100 * row.rate).toFixed(1)}% (target ${row.target})`,
        );
      expect(missed).toEqual([]);
    });
  }
});
