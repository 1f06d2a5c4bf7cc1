import { BiasAuditError } from './bias-audit-error.js';
import type { BiasAuditInput, BiasAuditThresholds, SessionPositions, SessionResponse } from './bias-audit-input.js';
import type {
  BiasAuditResult,
  CalibrationCutoffs,
  PositionScoreVariance,
  ReviewerCalibration,
  SelfVoteInflation,
} from './bias-audit-result.js';
import { mean, median, variance } from './internal/describe.js';
import { ordinalKrippendorffAlpha } from './ordinal-krippendorff-alpha.js';
import { pearson } from './pearson.js';

/** ADR-015's defaults; the composition layer reads the `LLM_COUNCIL_*` variables and passes them in. */
export const DEFAULT_BIAS_AUDIT_THRESHOLDS: Readonly<Required<BiasAuditThresholds>> = Object.freeze({
  lengthCorrelation: 0.3,
  positionVariance: 0.5,
  selfVoteInflation: 1,
});

const CAVEAT =
  'Per-session indicators only: with a handful of candidates a single session cannot establish a bias (ADR-015). ' +
  'Use the cross-session report (aggregateBiasAudit) for evidence.';

function invalid(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_INPUT', message });
}

function resolveThresholds(thresholds: BiasAuditThresholds | undefined): Required<BiasAuditThresholds> {
  const resolved = { ...DEFAULT_BIAS_AUDIT_THRESHOLDS, ...(thresholds ?? {}) };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new BiasAuditError({
        code: 'INVALID_OPTION',
        message: `threshold ${name} must be a non-negative number, got ${String(value)}. Check LLM_COUNCIL_* threshold variables.`,
      });
    }
  }
  if (resolved.lengthCorrelation > 1) {
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `threshold lengthCorrelation is an |r| and must be at most 1, got ${resolved.lengthCorrelation}.`,
    });
  }
  return resolved;
}

/** Whitespace-separated words, as Python's `str.split()` counts them. */
function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length;
}

function lengthsOf(responses: readonly SessionResponse[]): Map<string, { words: number; chars: number | null }> {
  if (!Array.isArray(responses))
    throw invalid('responses must be an array of { candidate, text } or { candidate, wordCount }.');
  const lengths = new Map<string, { words: number; chars: number | null }>();
  responses.forEach((response, i) => {
    const entry = response as unknown as Record<string, unknown>;
    const candidate = entry['candidate'];
    if (typeof candidate !== 'string' || candidate === '')
      throw invalid(`responses[${i}] has no candidate id; every response needs a non-empty "candidate".`);
    if (lengths.has(candidate))
      throw invalid(`responses lists candidate "${candidate}" twice; give one stage-1 response per candidate.`);
    const text = entry['text'];
    if (typeof text === 'string') {
      lengths.set(candidate, { words: countWords(text), chars: [...text].length });
      return;
    }
    const wordCount = entry['wordCount'];
    const charCount = entry['charCount'];
    if (typeof wordCount !== 'number' || !Number.isInteger(wordCount) || wordCount < 0) {
      throw invalid(`responses[${i}] ("${candidate}") needs either "text" or a non-negative integer "wordCount".`);
    }
    if (charCount !== undefined && (typeof charCount !== 'number' || !Number.isInteger(charCount) || charCount < 0)) {
      throw invalid(
        `responses[${i}] ("${candidate}") has charCount ${JSON.stringify(charCount)}; it must be a non-negative integer when given.`,
      );
    }
    lengths.set(candidate, { words: wordCount, chars: charCount ?? null });
  });
  return lengths;
}

function checkScores(scores: BiasAuditInput['scores']): [string, string, number][] {
  if (typeof scores !== 'object' || scores === null || Array.isArray(scores)) {
    throw invalid('scores must be an object of the form { reviewer: { candidate: score } }.');
  }
  const triples: [string, string, number][] = [];
  for (const [reviewer, row] of Object.entries(scores)) {
    if (typeof row !== 'object' || row === null)
      throw invalid(`scores["${reviewer}"] must be an object of { candidate: score }.`);
    for (const [candidate, score] of Object.entries(row)) {
      if (score === null || score === undefined) continue;
      if (typeof score !== 'number' || !Number.isFinite(score)) {
        throw invalid(
          `scores["${reviewer}"]["${candidate}"] is ${String(score)}; scores must be finite numbers, or null when not given.`,
        );
      }
      triples.push([reviewer, candidate, score]);
    }
  }
  return triples;
}

/** Returns a lookup of the position a reviewer saw a candidate at, or null when positions are absent. */
function positionLookup(
  positions: SessionPositions | undefined,
): ((reviewer: string, candidate: string) => number | undefined) | null {
  if (positions === undefined) return null;
  if (typeof positions !== 'object' || positions === null)
    throw invalid('positions must be { candidate: position } or { reviewer: { candidate: position } }.');
  const values = Object.values(positions);
  const checkPosition = (value: unknown, where: string): void => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw invalid(`positions${where} is ${String(value)}; a display position is a 0-based integer.`);
    }
  };
  if (values.every((v) => typeof v === 'number')) {
    for (const [candidate, value] of Object.entries(positions)) checkPosition(value, `["${candidate}"]`);
    const shared = positions as Readonly<Record<string, number>>;
    return (_reviewer, candidate) => shared[candidate];
  }
  if (values.every((v) => typeof v === 'object' && v !== null)) {
    const perReviewer = positions as Readonly<Record<string, Readonly<Record<string, number>>>>;
    for (const [reviewer, row] of Object.entries(perReviewer)) {
      for (const [candidate, value] of Object.entries(row)) checkPosition(value, `["${reviewer}"]["${candidate}"]`);
    }
    return (reviewer, candidate) => perReviewer[reviewer]?.[candidate];
  }
  throw invalid(
    'positions mixes the shared ({ candidate: position }) and per-reviewer ({ reviewer: { candidate: position } }) forms; use one.',
  );
}

function positionVariance(
  triples: [string, string, number][],
  lookup: ReturnType<typeof positionLookup>,
): PositionScoreVariance {
  if (lookup === null) return { computable: false, reason: 'no display positions were given for this session' };
  const byPosition = new Map<number, number[]>();
  for (const [reviewer, candidate, score] of triples) {
    const position = lookup(reviewer, candidate);
    if (position === undefined) continue;
    const list = byPosition.get(position);
    if (list) list.push(score);
    else byPosition.set(position, [score]);
  }
  if (byPosition.size < 2) {
    return {
      computable: false,
      reason: `scores were seen at ${byPosition.size} display position(s); a spread needs at least 2`,
    };
  }
  const positionMeans = [...byPosition.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([position, list]) => ({ position, meanScore: mean(list), n: list.length }));
  return {
    computable: true,
    variance: variance(
      positionMeans.map((p) => p.meanScore),
      0,
    ),
    statistic: 'population variance of per-position mean scores',
    positionMeans,
    n: positionMeans.reduce((s, p) => s + p.n, 0),
  };
}

/**
 * The per-session bias audit of ADR-015: length–score correlation (exact p), position score spread,
 * reviewer calibration with harsh/generous reviewers, self-vote inflation, reviewer agreement and
 * ADR-015's overall risk. Each figure carries its n; everything is an indicator, not proof.
 */
export function runBiasAudit(input: BiasAuditInput, thresholds?: BiasAuditThresholds): BiasAuditResult {
  if (typeof input !== 'object' || input === null)
    throw invalid('runBiasAudit needs { responses, scores, positions? }.');
  const limits = resolveThresholds(thresholds);
  const lengths = lengthsOf(input.responses);
  const triples = checkScores(input.scores);
  const lookup = positionLookup(input.positions);

  // Length: mean score per candidate (every reviewer's score, as ADR-015 computes it) against length.
  const byCandidate = new Map<string, number[]>();
  for (const [, candidate, score] of triples) {
    const list = byCandidate.get(candidate);
    if (list) list.push(score);
    else byCandidate.set(candidate, [score]);
  }
  const words: number[] = [];
  const wordScores: number[] = [];
  const chars: number[] = [];
  const charScores: number[] = [];
  for (const [candidate, length] of lengths) {
    const list = byCandidate.get(candidate);
    if (!list) continue;
    const m = mean(list);
    words.push(length.words);
    wordScores.push(m);
    if (length.chars !== null) {
      chars.push(length.chars);
      charScores.push(m);
    }
  }
  const lengthScoreCorrelation = pearson(words, wordScores);
  const lengthScoreCorrelationChars = pearson(chars, charScores);
  const lengthBiasDetected = lengthScoreCorrelation.computable
    ? Math.abs(lengthScoreCorrelation.r) > limits.lengthCorrelation && lengthScoreCorrelation.pValue < 0.05
    : null;

  const positionScoreVariance = positionVariance(triples, lookup);
  const positionBiasDetected = positionScoreVariance.computable
    ? positionScoreVariance.variance > limits.positionVariance
    : null;

  // Reviewer calibration (population SD, as ADR-015's np.std).
  const byReviewer = new Map<string, number[]>();
  for (const [reviewer, , score] of triples) {
    const list = byReviewer.get(reviewer);
    if (list) list.push(score);
    else byReviewer.set(reviewer, [score]);
  }
  const reviewerCalibration: Record<string, ReviewerCalibration> = {};
  for (const [reviewer, list] of byReviewer) {
    reviewerCalibration[reviewer] = {
      mean: mean(list),
      standardDeviation: Math.sqrt(variance(list, 0)),
      count: list.length,
    };
  }
  const harshReviewers: string[] = [];
  const generousReviewers: string[] = [];
  let calibrationCutoffs: CalibrationCutoffs | null = null;
  const reviewerMeans = [...byReviewer.keys()].map((r) => reviewerCalibration[r]!.mean);
  if (reviewerMeans.length > 0) {
    const k = reviewerMeans.length;
    const medianOfMeans = median(reviewerMeans);
    const standardDeviationOfMeans = k > 1 ? Math.sqrt(variance(reviewerMeans, 0)) : 1;
    calibrationCutoffs = {
      medianOfMeans,
      standardDeviationOfMeans,
      reviewers: k,
      note:
        k <= 2
          ? `With ${k} reviewer(s) no mean can lie more than one SD from the median, so nobody can be flagged harsh or generous.`
          : `With ${k} reviewers the flags compare each mean with the others' spread in this session only; they are indicators, not tests.`,
    };
    for (const [reviewer, c] of Object.entries(reviewerCalibration)) {
      if (c.mean < medianOfMeans - standardDeviationOfMeans) harshReviewers.push(reviewer);
      if (c.mean > medianOfMeans + standardDeviationOfMeans) generousReviewers.push(reviewer);
    }
  }

  // Self-vote inflation: own score minus the mean of the others' scores for the same response.
  const selfVoteInflation: Record<string, SelfVoteInflation> = {};
  const selfPreferenceReviewers: string[] = [];
  for (const [reviewer, row] of Object.entries(input.scores)) {
    const own = row[reviewer];
    if (typeof own !== 'number') continue;
    const others = triples.filter(([r, c]) => c === reviewer && r !== reviewer).map((t) => t[2]);
    if (others.length === 0) continue;
    const othersMean = mean(others);
    selfVoteInflation[reviewer] = {
      ownScore: own,
      othersMean,
      inflation: own - othersMean,
      othersCount: others.length,
    };
    if (own - othersMean > limits.selfVoteInflation) selfPreferenceReviewers.push(reviewer);
  }

  const riskFactors: BiasAuditResult['riskFactors'] = [];
  if (lengthBiasDetected === true) riskFactors.push('length_bias');
  if (positionBiasDetected === true) riskFactors.push('position_bias');
  if (harshReviewers.length > 0) riskFactors.push('harsh_reviewer');
  if (generousReviewers.length > 0) riskFactors.push('generous_reviewer');
  const overallBiasRisk = riskFactors.length === 0 ? 'low' : riskFactors.length <= 2 ? 'medium' : 'high';

  return {
    indicatorOnly: true,
    caveat: CAVEAT,
    thresholds: limits,
    lengthScoreCorrelation,
    lengthScoreCorrelationChars,
    lengthBiasDetected,
    positionScoreVariance,
    positionBiasDetected,
    reviewerCalibration,
    calibrationCutoffs,
    harshReviewers,
    generousReviewers,
    selfVoteInflation,
    selfPreferenceReviewers,
    reviewerAgreement: ordinalKrippendorffAlpha(input.scores),
    overallBiasRisk,
    riskFactors,
    sampleSizes: {
      responses: lengths.size,
      scoredCandidates: words.length,
      reviewers: byReviewer.size,
      scores: triples.length,
      positionedScores: positionScoreVariance.computable ? positionScoreVariance.n : 0,
    },
  };
}
