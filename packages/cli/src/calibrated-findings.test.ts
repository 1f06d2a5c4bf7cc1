import { describe, expect, it } from 'vitest';
import {
  calibratedOrderSentence,
  effectiveJudgesSentence,
  figureText,
  poolingPriorSentence,
  styleCoefficientSentence,
  styleOrderSentence,
} from './calibrated-findings.js';

// Hand-written examples: what a team lead reads for each of issue 31's figures.
const point = (estimate: number, lower: number | null = null, upper: number | null = null) => ({
  estimate,
  lower,
  upper,
});

describe("issue 31's figures as sentences", () => {
  const leaderboard = [
    { model: 'm/a', rawRank: 2, calibratedRank: 1 },
    { model: 'm/b', rawRank: 1, calibratedRank: 2 },
    { model: 'm/c', rawRank: 3, calibratedRank: 3 },
  ];

  it('says how the calibrated order differs from the raw one, and when the data cannot tell the swapped apart', () => {
    const changed =
      "Taking each reviewer's offset and the display positions' effects out of the scores changes the order: m/a rises from 2nd to 1st; m/b falls from 1st to 2nd.";
    expect(calibratedOrderSentence({ leaderboard })).toBe(changed);
    // m/a − m/b calibrated: 1 point [0.4, 1.6] is settled; [−0.2, 0.9] is not.
    const differences = (lower: number) => [
      { model: 'm/a', other: 'm/b', calibrated: point(1, lower, 1.6) },
      { model: 'm/a', other: 'm/c', calibrated: point(2, 1.4, 2.6) },
      { model: 'm/b', other: 'm/c', calibrated: point(1, 0.4, 1.6) },
    ];
    expect(calibratedOrderSentence({ leaderboard, differences: differences(0.4) })).toBe(changed);
    expect(calibratedOrderSentence({ leaderboard, differences: differences(-0.2) })).toBe(
      `${changed} Their intervals overlap, though: these data cannot yet tell them apart.`,
    );
    expect(
      calibratedOrderSentence({ leaderboard: leaderboard.map((e) => ({ ...e, rawRank: e.calibratedRank })) }),
    ).toBe(
      "Taking each reviewer's offset and the display positions' effects out of the scores leaves the order as it is.",
    );
  });

  it('says n_eff with its interval and what it does to the leaderboard, or why it is not known', () => {
    // √(5/2.3) = 1.474
    expect(
      effectiveJudgesSentence({
        reviewers: 5,
        effective: point(2.3, 1.8, 3.1),
        standardErrorFactor: Math.sqrt(5 / 2.3),
        pairs: [{}],
      }),
    ).toBe(
      "5 judges, 2.3 effective [1.8–3.1]: the leaderboard's intervals are as wide as 2.3 independent judges would give (the reviewers' part of each is 1.47 times as wide as 5 independent judges would make it).",
    );
    expect(
      effectiveJudgesSentence({ reviewers: 4, effective: point(4, 3.6, 4), standardErrorFactor: 1, pairs: [{}] }),
    ).toBe(
      "4 judges, 4.0 effective [3.6–4.0]: the leaderboard's intervals are as wide as 4.0 independent judges would give.",
    );
    // Under 50 sessions the study's caveat follows an interval (none without one); at 50 it is gone.
    const judges = { reviewers: 4, effective: point(4, 3.6, 4), standardErrorFactor: 1, pairs: [{}] };
    expect(effectiveJudgesSentence({ ...judges, sessions: 20 })).toBe(
      "4 judges, 4.0 effective [3.6–4.0]: the leaderboard's intervals are as wide as 4.0 independent judges would give. With 20 sessions (under 50) the interval is less sure than it says: in simulated 20-session councils where two groups of judges each err alike it held the true figure 89.5% of the time, and lay above it when it missed.",
    );
    expect(effectiveJudgesSentence({ ...judges, sessions: 50 })).toBe(
      "4 judges, 4.0 effective [3.6–4.0]: the leaderboard's intervals are as wide as 4.0 independent judges would give.",
    );
    expect(
      effectiveJudgesSentence({ ...judges, effective: { estimate: 4, lower: null, upper: null }, sessions: 20 }),
    ).toBe("4 judges, 4.0 effective: the leaderboard's intervals are as wide as 4.0 independent judges would give.");
    expect(
      effectiveJudgesSentence({
        reviewers: 0,
        effective: { estimate: null, lower: null, upper: null },
        standardErrorFactor: null,
        pairs: [],
      }),
    ).toBe('Not known yet: it needs two reviewers who both scored at least 10 of the same answers.');
  });

  it('states the pooling prior, and what τ = 0 means', () => {
    expect(poolingPriorSentence({ tau: 2.25, subjects: 4 })).toMatch(
      /^Prior: a reviewer's true offset lies around the typical reviewer's \(0\) with a spread of about τ = 2\.25 points \(its most likely value\), learnt from the 4 reviewers' offsets \(empirical Bayes, averaged over every spread the data allow\)\./,
    );
    // τ = 0 is only the most likely spread: partialPool averages over larger ones too, so no offset is pulled to 0.
    expect(poolingPriorSentence({ tau: 0, subjects: 3 })).toContain(
      '(most likely spread τ = 0), so each offset is pulled strongly toward the typical reviewer',
    );
    expect(poolingPriorSentence({ tau: 0, subjects: 3 })).not.toContain('all the way to');
    // A shared variance of 0.0025 points² is an SD of 0.05 points; none (0 or absent) adds nothing.
    expect(poolingPriorSentence({ tau: 0.1, subjects: 5, sharedVariance: 0.0025 })).toMatch(
      /The pooled intervals also allow for how uncertain the typical reviewer's own place is \(an SD of 0\.05 points shared by every offset\)\.$/,
    );
    expect(poolingPriorSentence({ tau: 0.1, subjects: 5, sharedVariance: 0 })).not.toContain('also allow');
    // An SD of 0.004 points (a fair council's bootstrap is seldom exactly 0) would read "0.00": not said.
    expect(poolingPriorSentence({ tau: 0.1, subjects: 5, sharedVariance: 0.004 ** 2 })).not.toContain('also allow');
  });

  it('says the style-controlled order against the plain one, and what length does to the odds', () => {
    const rated = (order: string[]) => order.map((candidate, i) => ({ candidate, rank: i + 1 }));
    expect(
      styleOrderSentence({
        plain: rated(['m/a', 'm/b']),
        styleControlled: rated(['m/b', 'm/a']),
        coefficients: [{ feature: 'log_length' }],
      }),
    ).toBe(
      "Holding length fixed changes the order of the reviewers' rankings: m/b rises from 2nd to 1st; m/a falls from 1st to 2nd.",
    );
    expect(
      styleCoefficientSentence({ feature: 'log_length', coefficient: 0.42, interval: { lower: 0.2, upper: 0.63 } }),
    ).toBe(
      'An answer one standard deviation longer (in log characters) wins more often: +0.42 [+0.20, +0.63] log-odds',
    );
    // leaderboard --calibrated's features: length in characters (not its log) and the history's style statistics.
    expect(
      styleCoefficientSentence({
        feature: 'length_per_1000_chars',
        coefficient: 0.41,
        interval: { lower: 0.15, upper: 0.74 },
      }),
    ).toBe('An answer one standard deviation longer (in characters) wins more often: +0.41 [+0.15, +0.74] log-odds');
    expect(styleCoefficientSentence({ feature: 'words_per_sentence', coefficient: -0.6, interval: null })).toBe(
      'An answer one standard deviation higher in words per sentence wins less often: -0.60 log-odds',
    );
    expect(
      styleOrderSentence({
        plain: rated(['m/a']),
        styleControlled: rated(['m/a']),
        coefficients: [{ feature: 'length_per_1000_chars' }, { feature: 'list_share' }],
      }),
    ).toBe("Holding length and share of list lines fixed leaves the order of the reviewers' rankings as it is.");
    expect(figureText(point(-4.5, -4.6, -4.4), { signed: true })).toBe('-4.50 [-4.60, -4.40]');
    expect(figureText(point(-1e-16), { signed: true })).toBe('0.00');
  });
});
