import { describe, expect, it } from 'vitest';
import { BiasAuditError } from './bias-audit-error.js';
import { derivePositionMapping } from './derive-position-mapping.js';
import { runBiasAudit } from './run-bias-audit.js';
import { summarizeSession } from './summarize-session.js';

// Five candidates, three of them also reviewing. Mean score per candidate (over the 3 reviewers):
// a: (4 + 1 + 1)/3 = 2, b: 1, c: 4, d: 3, e: 5 → against word counts 100…500 this is r = 0.8 (n = 5).
const responses = [
  { candidate: 'a', wordCount: 100, charCount: 600 },
  { candidate: 'b', wordCount: 200, charCount: 1200 },
  { candidate: 'c', wordCount: 300, charCount: 1800 },
  { candidate: 'd', wordCount: 400, charCount: 2400 },
  { candidate: 'e', wordCount: 500, charCount: 3000 },
];
const scores = {
  a: { a: 4, b: 1, c: 4, d: 3, e: 5 },
  b: { a: 1, b: 1, c: 4, d: 3, e: 5 },
  c: { a: 1, b: 1, c: 4, d: 3, e: 5 },
};

describe('runBiasAudit', () => {
  it('uses the exact t test: r = 0.8 at n = 5 has p = 0.104, so no length bias is flagged despite |r| > 0.3', () => {
    const result = runBiasAudit({ responses, scores });
    expect(result.lengthScoreCorrelation).toMatchObject({ computable: true, n: 5 });
    if (!result.lengthScoreCorrelation.computable) return;
    expect(result.lengthScoreCorrelation.r).toBeCloseTo(0.8, 12);
    expect(result.lengthScoreCorrelation.pValue).toBeCloseTo(0.104088, 6);
    expect(result.lengthBiasDetected).toBe(false);
    // Characters are 6 × words here, so the character correlation is the same.
    expect(result.lengthScoreCorrelationChars.computable && result.lengthScoreCorrelationChars.r).toBeCloseTo(0.8, 12);
    expect(result.indicatorOnly).toBe(true);
    expect(result.caveat).toMatch(/indicators/);
  });

  it('flags length bias when |r| > 0.3 and p < 0.05', () => {
    // Mean scores 1, 2, 3, 4, 5 against 100…500 words: r = 1, p = 0.
    const result = runBiasAudit({ responses, scores: { x: { a: 1, b: 2, c: 3, d: 4, e: 5 } } });
    expect(result.lengthBiasDetected).toBe(true);
    expect(result.riskFactors).toContain('length_bias');
  });

  it('computes reviewer calibration with population SDs and flags the generous reviewer (worked by hand)', () => {
    // Reviewer a: 4,1,4,3,5 → mean 3.4; deviations .6, −2.4, .6, −.4, 1.6 → Σ² = 9.2 → SD √(9.2/5) = 1.356466.
    // Reviewers b and c: 1,1,4,3,5 → mean 2.8. Median of means 2.8; SD of means √(((.4)² + 2·(.2)²)/3) = √0.08 = 0.282843.
    // Generous: 3.4 > 2.8 + 0.2828. Harsh: 2.8 < 2.8 − 0.2828 is false.
    const result = runBiasAudit({ responses, scores });
    expect(result.reviewerCalibration['a']!.mean).toBeCloseTo(3.4, 12);
    expect(result.reviewerCalibration['a']!.standardDeviation).toBeCloseTo(1.356466, 6);
    expect(result.reviewerCalibration['a']!.count).toBe(5);
    expect(result.calibrationCutoffs).toMatchObject({ medianOfMeans: 2.8, reviewers: 3 });
    expect(result.calibrationCutoffs!.standardDeviationOfMeans).toBeCloseTo(0.282843, 6);
    expect(result.generousReviewers).toEqual(['a']);
    expect(result.harshReviewers).toEqual([]);
  });

  it('measures self-vote inflation as own score minus the mean the others gave that response', () => {
    // a gave itself 4; b and c gave a 1 and 1 → inflation 3 (> 1: self-preference). b: 1 vs (1, 1) → 0. c: 4 vs (4, 4) → 0.
    const result = runBiasAudit({ responses, scores });
    expect(result.selfVoteInflation['a']).toEqual({ ownScore: 4, othersMean: 1, inflation: 3, othersCount: 2 });
    expect(result.selfVoteInflation['b']!.inflation).toBe(0);
    expect(result.selfPreferenceReviewers).toEqual(['a']);
    expect(runBiasAudit({ responses, scores }, { selfVoteInflation: 3 }).selfPreferenceReviewers).toEqual([]);
  });

  it('computes position variance from shared positions (population variance of per-position means)', () => {
    // Shared order a, b, c, d, e → position means = candidate means 2, 1, 4, 3, 5; mean 3; Σ(dev²) = 1+4+1+0+4 = 10; /5 = 2.
    const result = runBiasAudit({ responses, scores, positions: { a: 0, b: 1, c: 2, d: 3, e: 4 } });
    expect(result.positionScoreVariance).toMatchObject({ computable: true, variance: 2, n: 15 });
    expect(result.positionBiasDetected).toBe(true);
    // Position bias + generous reviewer = 2 risk factors → medium.
    expect(result.overallBiasRisk).toBe('medium');
    expect(result.riskFactors).toEqual(['position_bias', 'generous_reviewer']);
  });

  it('computes position variance from per-reviewer positions (ADR-017 per-reviewer orders)', () => {
    // Reviewers a and c see a..e in order; b sees e..a. Scores at each position:
    // 0: a→a 4, b→e 5, c→a 1 = 10/3; 1: 1, 3, 1 = 5/3; 2: 4, 4, 4 = 4; 3: 3, 1, 3 = 7/3; 4: 5, 1, 5 = 11/3.
    // Mean 3; deviations 1/3, −4/3, 1, −2/3, 2/3 → Σ² = 34/9 → /5 = 34/45 = 0.755556.
    const forward = { a: 0, b: 1, c: 2, d: 3, e: 4 };
    const backward = { a: 4, b: 3, c: 2, d: 1, e: 0 };
    const result = runBiasAudit({ responses, scores, positions: { a: forward, b: backward, c: forward } });
    expect(result.positionScoreVariance.computable && result.positionScoreVariance.variance).toBeCloseTo(34 / 45, 12);
    expect(result.positionScoreVariance.computable && result.positionScoreVariance.positionMeans[1]).toEqual({
      position: 1,
      meanScore: 5 / 3,
      n: 3,
    });
    expect(
      runBiasAudit({ responses, scores, positions: { a: forward, b: backward, c: forward } }, { positionVariance: 0.8 })
        .positionBiasDetected,
    ).toBe(false);
  });

  it('reports fewer than 3 scored candidates as not computable, not as r = 0, p = 1', () => {
    const result = runBiasAudit({ responses: responses.slice(0, 2), scores: { x: { a: 3, b: 7 } } });
    expect(result.lengthScoreCorrelation).toMatchObject({ computable: false, n: 2 });
    expect(result.lengthBiasDetected).toBeNull();
    expect(result.positionScoreVariance).toMatchObject({ computable: false });
    expect(result.positionBiasDetected).toBeNull();
    expect(result.sampleSizes).toEqual({
      responses: 2,
      scoredCandidates: 2,
      reviewers: 1,
      scores: 2,
      positionedScores: 0,
    });
  });

  it('counts words like str.split() and characters as code points', () => {
    const result = runBiasAudit({
      responses: [
        { candidate: 'a', text: '  one two\n three  ' },
        { candidate: 'b', text: 'x' },
        { candidate: 'c', text: 'ü é 😀 z' },
      ],
      scores: { r: { a: 3, b: 1, c: 4 } },
    });
    // Words 3, 1, 4 against scores 3, 1, 4 → r = 1. Characters 18, 1, 7 (the emoji is one code point).
    expect(result.lengthScoreCorrelation.computable && result.lengthScoreCorrelation.r).toBeCloseTo(1, 12);
    const chars = result.lengthScoreCorrelationChars;
    // x̄ = 26/3; scores ȳ = 8/3. Σdx·dy = (9.333)(0.333)+(−7.667)(−1.667)+(−1.667)(1.333) = 3.111+12.778−2.222 = 13.667;
    // Exactly: Σdx·dy = 41/3, Σdx² = 446/3, Σdy² = 14/3 → r = 41/√(446·14) = 41/√6244 = 41/79.018985 = 0.518863.
    expect(chars.computable && chars.r).toBeCloseTo(0.518863, 6);
  });

  it('ignores null scores and rejects malformed input with what to fix', () => {
    expect(runBiasAudit({ responses, scores: { a: { a: null, b: 2 } } }).sampleSizes.scores).toBe(1);
    expect(() => runBiasAudit({ responses, scores: { a: { b: Number.NaN } } })).toThrow(BiasAuditError);
    expect(() => runBiasAudit({ responses, scores: { a: { b: Number.NaN } } })).toThrow(/scores\["a"\]\["b"\]/);
    expect(() => runBiasAudit({ responses: [...responses, responses[0]!], scores })).toThrow(/twice/);
    expect(() => runBiasAudit({ responses: [{ candidate: 'a' } as never], scores })).toThrow(/wordCount/);
    expect(() => runBiasAudit({ responses, scores, positions: { a: 0, b: { a: 1 } } as never })).toThrow(/mixes/);
    expect(() => runBiasAudit({ responses, scores, positions: { a: -1 } })).toThrow(/0-based/);
    expect(() => runBiasAudit({ responses, scores }, { lengthCorrelation: 2 })).toThrow(/at most 1/);
    try {
      runBiasAudit({ responses, scores }, { positionVariance: -1 });
    } catch (error) {
      expect(BiasAuditError.isInstance(error) && error.code).toBe('INVALID_OPTION');
    }
  });
});

describe('summarizeSession', () => {
  it("returns ADR-018's bias_indicators with the flags the audit raised", () => {
    const result = runBiasAudit({ responses, scores, positions: { a: 0, b: 1, c: 2, d: 3, e: 4 } });
    const summary = summarizeSession(result);
    expect(Object.keys(summary).sort()).toEqual([
      'flags',
      'length_correlation',
      'position_variance',
      'reviewer_agreement',
    ]);
    expect(summary.position_variance).toBe(2);
    expect(summary.length_correlation).toBe(0.8);
    expect(summary.flags).toEqual(['POSITION_BIAS_DETECTED', 'GENEROUS_REVIEWER', 'SELF_PREFERENCE']);
    expect(typeof summary.reviewer_agreement).toBe('number');
  });

  it('uses null, never 0, for figures that could not be computed', () => {
    const summary = summarizeSession(
      runBiasAudit({ responses: responses.slice(0, 2), scores: { x: { a: 5, b: 5 }, y: { a: 5, b: 5 } } }),
    );
    expect(summary).toEqual({ position_variance: null, length_correlation: null, reviewer_agreement: null, flags: [] });
  });

  it('reports reviewer agreement as ordinal Krippendorff α (two reviewers agreeing on two of three candidates: 4/9)', () => {
    // Same worked case as the α tests: coincidences o11 = o22 = 2, o12 = o21 = 1 → α = 1 − 90/162 = 0.4444.
    const summary = summarizeSession(
      runBiasAudit({ responses: responses.slice(0, 3), scores: { p: { a: 1, b: 2, c: 1 }, q: { a: 1, b: 2, c: 2 } } }),
    );
    expect(summary.reviewer_agreement).toBe(0.4444);
  });
});

describe('derivePositionMapping', () => {
  it('reads the enhanced format ({ model, displayIndex }, also display_index)', () => {
    expect(
      derivePositionMapping({
        'Response A': { model: 'openai/gpt-4', displayIndex: 0 },
        'Response B': { model: 'anthropic/claude-3', display_index: 1 },
        'Response C': { model: 'google/gemini-pro', displayIndex: 2 },
      }),
    ).toEqual({ 'openai/gpt-4': 0, 'anthropic/claude-3': 1, 'google/gemini-pro': 2 });
  });

  it('reads the legacy format from the label letter, case-insensitively', () => {
    expect(
      derivePositionMapping({ 'Response C': 'google/gemini', 'response a': 'openai/gpt-4', 'RESPONSE b': 'x/y' }),
    ).toEqual({
      'google/gemini': 2,
      'openai/gpt-4': 0,
      'x/y': 1,
    });
  });

  it('skips labels it cannot read instead of guessing', () => {
    expect(
      derivePositionMapping({
        'Response 12': 'a/b',
        'Response AB': 'c/d',
        'Response D': { model: 'e/f' },
        'Response E': { model: 'g/h', displayIndex: -1 },
        'Response F': 42,
        'Response G': 'ok/model',
      }),
    ).toEqual({ 'ok/model': 6 });
  });
});
