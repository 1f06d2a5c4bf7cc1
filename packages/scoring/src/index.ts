export type { Ballot, CandidateOptions } from './ballot.js';
export { ScoringError } from './scoring-error.js';
export type { ScoringErrorCode } from './scoring-error.js';
export { createRng } from './create-rng.js';
export { createMulberry32 } from './create-mulberry32.js';
export { createSfc32 } from './create-sfc32.js';
export type { Rng } from './create-rng.js';
export { fnv1a } from './fnv1a.js';
export { calculateBordaScores } from './calculate-borda-scores.js';
export type { BordaOptions, Confidence, LeaderboardEntry } from './calculate-borda-scores.js';
export { detectScoreRankMismatch } from './detect-score-rank-mismatch.js';
export type { ScoreRankMismatch } from './detect-score-rank-mismatch.js';
export { aggregateLeaderboards } from './aggregate-leaderboards.js';
export type {
  AggregateLeaderboardEntry,
  AggregateLeaderboardOptions,
  LeaderboardSession,
  Timestamp,
} from './aggregate-leaderboards.js';
export { bradleyTerry } from './bradley-terry.js';
export type { BradleyTerryEntry, BradleyTerryOptions } from './bradley-terry.js';
export type { OptionalCandidateOptions } from './condorcet-options.js';
export { copeland } from './copeland.js';
export type { CopelandEntry, CopelandResult, PairwiseSupport } from './copeland.js';
export { schulze } from './schulze.js';
export type { SchulzeEntry, SchulzeResult } from './schulze.js';
export { kendallW } from './kendall-w.js';
export type { KendallWOptions, KendallWResult } from './kendall-w.js';
export { krippendorffAlpha } from './krippendorff-alpha.js';
export { ordinalAlpha } from './ordinal-alpha.js';
export type { KrippendorffAlphaResult } from './krippendorff-alpha-result.js';
export { cohenKappa } from './cohen-kappa.js';
export type { CohenKappaOptions, CohenKappaResult } from './cohen-kappa.js';
export { spearmanRho } from './spearman-rho.js';
export type { SpearmanRhoResult } from './spearman-rho.js';
export { itemBootstrap } from './item-bootstrap.js';
export type { ItemBootstrapOptions, ItemBootstrapResult } from './item-bootstrap.js';
export { quantileSorted } from './quantile.js';
export { chiSquaredCdf, chiSquaredSf } from './chi-squared-distribution.js';
export { logGamma } from './log-gamma.js';
export { regularizedGamma } from './regularized-gamma.js';
export type { GammaTails } from './regularized-gamma.js';
export { regularizedBeta } from './regularized-beta.js';
export type { BetaTails } from './regularized-beta.js';
export { styleControlledBradleyTerry } from './style-controlled-bradley-terry.js';
export type {
  RatedCandidate,
  StyleCoefficient,
  StyleControlledOptions,
  StyleControlledRatings,
  StyledSession,
} from './style-controlled-bradley-terry.js';
