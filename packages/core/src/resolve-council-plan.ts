import type { BiasAuditThresholds } from '@council/bias-audit';
import { resolveModel as defaultResolveModel } from '@council/providers';
import type { CouncilConfig, SelfReview, StageTimeouts, SynthesisMode } from './council-config.js';
import { CouncilError } from './council-error.js';
import type { ResolvedMember } from './council-member.js';
import { defaultConfig } from './default-config.js';
import { orderModes } from './order-mode.js';
import type { EvidenceItem } from './frame-evidence.js';
import { DEFAULT_EVIDENCE_MAX_CHARS } from './frame-evidence.js';
import { verdictModes } from './jury-decision.js';
import type { VerdictMode } from './jury-decision.js';
import type { OrderMode } from './order-mode.js';
import { resolveCouncilMembers } from './resolve-council-members.js';
import { normalizeStrategyKey, resolveStrategy } from './resolve-strategy.js';
import type { RunCouncilOptions } from './run-council-options.js';

/** What a session runs with: the options checked and merged over the configuration, members resolved. */
export interface CouncilPlan {
  query: string;
  config: CouncilConfig;
  members: ResolvedMember[];
  /** The chairman first, then its fallbacks in order, each id once. */
  chairmen: ResolvedMember[];
  /** The normalised strategy key and its directive (with the goal filled in). */
  strategy: string;
  directive: string;
  goal: string | undefined;
  mode: SynthesisMode;
  order: OrderMode;
  selfReview: SelfReview;
  quorum: number;
  maxReviewers: number | undefined;
  timeouts: StageTimeouts;
  excludeSelfVotes: boolean;
  biasAudit: boolean;
  biasAuditThresholds: BiasAuditThresholds | undefined;
  seed: number | string | undefined;
  /** The cost cap in US dollars, or undefined for none. */
  maxCostUsd: number | undefined;
  /** False: no stage 3. */
  synthesis: boolean;
  structuredReviews: boolean;
  /** Jury mode, or undefined for none. */
  verdict: VerdictMode | undefined;
  verdictMinMargin: number;
  evidence: readonly EvidenceItem[];
  maxEvidenceChars: number;
  reviewerFlags: Readonly<Record<string, readonly string[]>>;
}

function invalid(message: string): CouncilError {
  return new CouncilError({ code: 'INVALID_OPTION', message });
}

function positiveInt(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1))
    throw invalid(`${name} must be a whole number of at least 1 (got ${String(value)}).`);
}

function resolveTimeouts(config: CouncilConfig, overrides: Partial<StageTimeouts> | undefined): StageTimeouts {
  const timeouts: StageTimeouts = {
    ...config.timeouts,
    ...Object.fromEntries(Object.entries(overrides ?? {}).filter(([, v]) => v !== undefined)),
  };
  for (const [name, ms] of Object.entries(timeouts)) {
    // setTimeout fires at once for delays past 2^31 − 1 ms, so larger values are refused rather than misread.
    if (!(Number.isFinite(ms) && ms > 0 && ms <= 2_147_483_647))
      throw invalid(`timeouts.${name} must be a positive number of milliseconds up to 2147483647 (got ${String(ms)}).`);
  }
  return timeouts;
}

function checkSeed(seed: number | string | undefined): void {
  if (
    seed !== undefined &&
    !((typeof seed === 'number' && Number.isFinite(seed)) || (typeof seed === 'string' && seed.trim() !== ''))
  ) {
    throw invalid(`seed must be a finite number or a non-empty string (got ${String(seed)}).`);
  }
}

/**
 * Checks `runCouncil`'s options and fills each one left out from the configuration, in a fixed order
 * (query, members, chairmen, strategy, mode, order, selfReview, quorum, maxReviewers, timeouts, seed), so
 * the first wrong option is the one reported. Throws `INVALID_OPTION` or `UNKNOWN_STRATEGY`.
 */
export function resolveCouncilPlan(options: RunCouncilOptions): CouncilPlan {
  const config = options.config ?? defaultConfig;
  if (typeof options.query !== 'string' || options.query.trim() === '')
    throw invalid('query must be a non-empty string: pass the question for the council.');
  const resolveModel = options.resolveModel ?? ((id: string) => defaultResolveModel(id));
  const { members, chairmen } = resolveCouncilMembers({
    members: options.members,
    chairman: options.chairman,
    chairmanFallbacks: options.chairmanFallbacks,
    config,
    resolveModel,
  });
  const strategy = normalizeStrategyKey(options.strategy ?? config.strategy);
  const directive = resolveStrategy(config, { strategy, goal: options.goal });
  const mode = options.mode ?? config.mode;
  if (mode !== 'consensus' && mode !== 'voting')
    throw invalid(`mode must be "consensus" or "voting" (got ${JSON.stringify(mode)}).`);
  const order = options.order ?? config.order;
  if (!orderModes.includes(order))
    throw invalid(`order must be one of ${orderModes.join(', ')} (got ${JSON.stringify(order)}).`);
  const selfReview = options.selfReview ?? config.selfReview;
  if (selfReview !== 'include' && selfReview !== 'omit')
    throw invalid(`selfReview must be "include" or "omit" (got ${JSON.stringify(selfReview)}).`);
  const quorum = options.quorum ?? config.quorum;
  positiveInt(quorum, 'quorum');
  if (quorum > members.length)
    throw invalid(
      `quorum is ${quorum} but only ${members.length} member(s) were given; lower the quorum or add members.`,
    );
  positiveInt(options.maxReviewers, 'maxReviewers');
  const timeouts = resolveTimeouts(config, options.timeouts);
  checkSeed(options.seed);
  const maxCostUsd = options.maxCostUsd ?? config.maxCostUsd;
  if (maxCostUsd !== undefined && !(Number.isFinite(maxCostUsd) && maxCostUsd > 0))
    throw invalid(`maxCostUsd must be a positive number of US dollars (got ${String(maxCostUsd)}).`);
  const verdict = options.verdict ?? config.verdict;
  if (verdict !== undefined && !verdictModes.includes(verdict))
    throw invalid(`verdict must be one of ${verdictModes.join(', ')} (got ${JSON.stringify(verdict)}).`);
  const verdictMinMargin = options.verdictMinMargin ?? config.verdictMinMargin;
  if (!(Number.isFinite(verdictMinMargin) && verdictMinMargin >= 0 && verdictMinMargin <= 1))
    throw invalid(`verdictMinMargin must be a number from 0 to 1 (got ${String(verdictMinMargin)}).`);
  const evidence = options.evidence ?? [];
  for (const item of evidence) {
    if (typeof item?.name !== 'string' || typeof item.text !== 'string')
      throw invalid('evidence must be a list of { name, text } with string values.');
  }
  const maxEvidenceChars = options.maxEvidenceChars ?? DEFAULT_EVIDENCE_MAX_CHARS;
  positiveInt(maxEvidenceChars, 'maxEvidenceChars');
  return {
    query: options.query,
    config,
    members,
    chairmen,
    strategy,
    directive,
    goal: options.goal,
    mode,
    order,
    selfReview,
    quorum,
    maxReviewers: options.maxReviewers,
    timeouts,
    excludeSelfVotes: options.excludeSelfVotes ?? config.excludeSelfVotes,
    biasAudit: options.biasAudit ?? config.biasAudit,
    biasAuditThresholds: options.biasAuditThresholds,
    seed: options.seed,
    maxCostUsd,
    synthesis: options.synthesis ?? true,
    structuredReviews: options.structuredReviews ?? config.structuredReviews,
    verdict,
    verdictMinMargin,
    evidence,
    maxEvidenceChars,
    reviewerFlags: options.reviewerFlags ?? {},
  };
}
