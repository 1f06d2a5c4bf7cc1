import { randomUUID } from 'node:crypto';
import { runBiasAudit, summarizeSession } from '@council/bias-audit';
import type { BiasAuditResult, BiasAuditThresholds } from '@council/bias-audit';
import { resolveModel as defaultResolveModel } from '@council/providers';
import type { CouncilCallContext, LanguageModelV1, Message, Usage } from '@council/providers';
import { calculateBordaScores, kendallW, krippendorffAlpha } from '@council/scoring';
import type { Ballot } from '@council/scoring';
import { buildChairmanPrompt } from './build-chairman-prompt.js';
import type { ChairmanInput } from './build-chairman-prompt.js';
import { buildEvaluationPrompt } from './build-evaluation-prompt.js';
import { callModel } from './call-model.js';
import type { CallOutcome } from './call-model.js';
import type { CouncilConfig, SelfReview, StageTimeouts, SynthesisMode } from './council-config.js';
import { CouncilError } from './council-error.js';
import type { CouncilEvent, CouncilStage } from './council-event.js';
import type { CouncilMember, ResolvedMember } from './council-member.js';
import type {
  CouncilBiasIndicators,
  CouncilSession,
  Exclusion,
  SessionAgreement,
  SessionConfig,
  SessionSynthesis,
  SessionUsage,
  Stage1Result,
  Stage2Result,
} from './council-session.js';
import { createBoundaryToken } from './create-boundary-token.js';
import { createPresentationOrders } from './create-presentation-orders.js';
import { createRng } from './create-rng.js';
import { defaultConfig } from './default-config.js';
import { detectInjection } from './detect-injection.js';
import { createLabelToModel } from './label-to-model.js';
import { orderModes } from './order-mode.js';
import type { OrderMode } from './order-mode.js';
import { parseContributors } from './parse-contributors.js';
import { parseEvaluation } from './parse-evaluation.js';
import type { Critique } from './parse-evaluation.js';
import { resolveMember } from './resolve-member.js';
import { normalizeStrategyKey, resolveStrategy } from './resolve-strategy.js';
import type { Rng } from './rng.js';
import { shuffle } from './shuffle.js';
import { uuidFromRng } from './uuid-from-rng.js';

export interface RunCouncilOptions {
  /** The question. It goes to the models; it never enters telemetry, events or bias observations. */
  query: string;
  /** Model ids, `LanguageModelV1`s, personalities or `{ id, model, systemPrompt? }`. Default: `config.members`. */
  members?: readonly CouncilMember[];
  /** The chairman. Default: `config.chairman`, else the first member. */
  chairman?: CouncilMember;
  /** Tried in order when the chairman fails (a stale id must not lose a finished council). Default: `config.chairmanFallbacks`. */
  chairmanFallbacks?: readonly CouncilMember[];
  /** A strategy key from the configuration cascade. Default: `config.strategy` (`balanced`). */
  strategy?: string;
  /** The goal for `goal-seeking` (and any directive with `{goal}`). */
  goal?: string;
  mode?: SynthesisMode;
  order?: OrderMode;
  /** Seeds orders, labels, the boundary token and the session id (`LLM_COUNCIL_RANDOM_SEED`); also passed to the models. */
  seed?: number | string;
  /** Per-stage deadlines for each call; unspecified stages take the config's. */
  timeouts?: Partial<StageTimeouts>;
  /** Minimum stage-1 answers to go on. Default: `config.quorum` (2). */
  quorum?: number;
  excludeSelfVotes?: boolean;
  selfReview?: SelfReview;
  /** Review with at most this many randomly sampled members (all by default). */
  maxReviewers?: number;
  /** Run the per-session bias audit and attach `bias_indicators`. Default: `config.biasAudit`. */
  biasAudit?: boolean;
  biasAuditThresholds?: BiasAuditThresholds;
  /** The resolved configuration cascade (`loadConfig`); default: the built-in defaults. */
  config?: CouncilConfig;
  abortSignal?: AbortSignal;
  onEvent?: (event: CouncilEvent) => void;
  /** Milliseconds since the epoch; default `Date.now`. Drives the timestamp and the recorded latencies. */
  clock?: { now(): number };
  /** Overrides the rng that `seed` would create. */
  rng?: Rng;
  /** Turns model ids into models; default `@council/providers`' `resolveModel`. */
  resolveModel?: (id: string) => LanguageModelV1;
}

function invalid(message: string): CouncilError {
  return new CouncilError({ code: 'INVALID_OPTIONS', message });
}

function positiveInt(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) throw invalid(`${name} must be a whole number of at least 1 (got ${String(value)}).`);
}

function modelSeed(seed: number | string | undefined): number | undefined {
  if (seed === undefined) return undefined;
  if (typeof seed === 'number' && Number.isSafeInteger(seed)) return seed;
  return Math.floor(createRng(String(seed)).next() * 2 ** 31);
}

function sumUsage(usages: readonly (Usage | null)[]): SessionUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | null = null;
  for (const usage of usages) {
    if (!usage) continue;
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    if (usage.costUsd !== undefined) costUsd = (costUsd ?? 0) + usage.costUsd;
  }
  return { inputTokens, outputTokens, tokens: inputTokens + outputTokens, costUsd };
}

/**
 * Runs one council session: stage 1 (members answer in parallel), stage 2 (each reviewer evaluates the
 * anonymised answers in an order from the chosen mode, between boundary markers), scoring (Borda and
 * agreement), stage 3 (the chairman synthesises under the strategy, with fallbacks), and the optional
 * bias audit. Returns a plain, serialisable session. Throws `CouncilError`: `INVALID_OPTIONS`,
 * `UNKNOWN_STRATEGY`, `QUORUM_NOT_MET` (with every member's failure) or `ABORTED`.
 */
export async function runCouncil(options: RunCouncilOptions): Promise<CouncilSession> {
  const config = options.config ?? defaultConfig;
  if (typeof options.query !== 'string' || options.query.trim() === '') throw invalid('query must be a non-empty string: pass the question for the council.');
  const resolveModel = options.resolveModel ?? ((id: string) => defaultResolveModel(id));

  const memberOptions = options.members ?? config.members;
  if (memberOptions.length === 0) throw invalid('members is empty: pass at least two model ids (or set LLM_COUNCIL_MODELS).');
  const members = memberOptions.map((m, i) => resolveMember(m, { resolveModel, role: `members[${i}]` }));
  const seen = new Set<string>();
  for (const member of members) {
    if (seen.has(member.id)) throw invalid(`members has "${member.id}" twice; member ids must be unique (wrap one in { id, model } to give it another id).`);
    seen.add(member.id);
  }
  const chairmanOption = options.chairman ?? config.chairman;
  const chairmen: ResolvedMember[] = [];
  const chairmanCandidates = [chairmanOption ?? memberOptions[0]!, ...(options.chairmanFallbacks ?? config.chairmanFallbacks)];
  chairmanCandidates.forEach((c, i) => {
    const resolved = resolveMember(c, { resolveModel, role: i === 0 ? 'chairman' : `chairmanFallbacks[${i - 1}]` });
    if (!chairmen.some((x) => x.id === resolved.id)) chairmen.push(resolved);
  });

  const strategy = normalizeStrategyKey(options.strategy ?? config.strategy);
  const directive = resolveStrategy(config, { strategy, goal: options.goal });
  const mode = options.mode ?? config.mode;
  if (mode !== 'consensus' && mode !== 'voting') throw invalid(`mode must be "consensus" or "voting" (got ${JSON.stringify(mode)}).`);
  const order = options.order ?? config.order;
  if (!orderModes.includes(order)) throw invalid(`order must be one of ${orderModes.join(', ')} (got ${JSON.stringify(order)}).`);
  const selfReview = options.selfReview ?? config.selfReview;
  if (selfReview !== 'include' && selfReview !== 'omit') throw invalid(`selfReview must be "include" or "omit" (got ${JSON.stringify(selfReview)}).`);
  const quorum = options.quorum ?? config.quorum;
  positiveInt(quorum, 'quorum');
  if (quorum > members.length) throw invalid(`quorum is ${quorum} but only ${members.length} member(s) were given; lower the quorum or add members.`);
  positiveInt(options.maxReviewers, 'maxReviewers');
  const timeouts: StageTimeouts = { ...config.timeouts, ...Object.fromEntries(Object.entries(options.timeouts ?? {}).filter(([, v]) => v !== undefined)) };
  for (const [name, ms] of Object.entries(timeouts)) {
    // setTimeout fires at once for delays past 2^31 − 1 ms, so larger values are refused rather than misread.
    if (!(Number.isFinite(ms) && ms > 0 && ms <= 2_147_483_647)) throw invalid(`timeouts.${name} must be a positive number of milliseconds up to 2147483647 (got ${String(ms)}).`);
  }
  const excludeSelfVotes = options.excludeSelfVotes ?? config.excludeSelfVotes;
  const biasAuditEnabled = options.biasAudit ?? config.biasAudit;

  if (options.seed !== undefined && !((typeof options.seed === 'number' && Number.isFinite(options.seed)) || (typeof options.seed === 'string' && options.seed.trim() !== ''))) {
    throw invalid(`seed must be a finite number or a non-empty string (got ${String(options.seed)}).`);
  }
  const now = options.clock ? () => options.clock!.now() : () => Date.now();
  const seeded = options.rng !== undefined || options.seed !== undefined;
  const rng = options.rng ?? createRng(options.seed ?? randomUUID());
  const seedForModels = modelSeed(options.seed);
  const signal = options.abortSignal;
  const emit = (event: CouncilEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing progress display must not fail the session.
    }
  };
  const runningUsage: Array<Usage | null> = [];
  const checkAborted = (): void => {
    if (signal?.aborted) throw new CouncilError({ code: 'ABORTED', message: 'The council session was aborted by its abort signal.', cause: signal.reason });
  };
  const run = async (input: { stage: CouncilStage; member: ResolvedMember; messages: Message[]; council: CouncilCallContext; timeoutMs: number; as?: string }): Promise<CallOutcome> => {
    const who = input.as ?? input.member.id;
    emit({ type: 'model-started', stage: input.stage, member: who, model: input.member.modelId });
    const outcome = await callModel({ model: input.member.model, messages: input.messages, council: input.council, timeoutMs: input.timeoutMs, abortSignal: signal, now, seed: seedForModels });
    if (outcome.ok) {
      emit({ type: 'model-finished', stage: input.stage, member: who, model: input.member.modelId, latencyMs: outcome.latencyMs, usage: outcome.usage });
      runningUsage.push(outcome.usage);
      const total = sumUsage(runningUsage);
      emit({ type: 'usage', tokens: total.tokens, costUsd: total.costUsd });
    } else {
      emit({ type: 'model-failed', stage: input.stage, member: who, model: input.member.modelId, reason: outcome.error.reason, message: outcome.error.message });
    }
    return outcome;
  };

  checkAborted();
  const sessionId = seeded ? uuidFromRng(rng) : randomUUID();
  const timestamp = new Date(now()).toISOString();
  const excluded: Exclusion[] = [];
  const warnings: string[] = [];

  // Stage 1: every member answers in parallel.
  emit({ type: 'stage-started', stage: 1, calls: members.length });
  const outcomes1 = await Promise.all(
    members.map((member) => {
      const messages: Message[] = member.systemPrompt ? [{ role: 'system', content: member.systemPrompt }] : [];
      messages.push({ role: 'user', content: options.query });
      return run({ stage: 1, member, messages, council: { stage: 'answer' }, timeoutMs: timeouts.stage1Ms });
    }),
  );
  const boundary = createBoundaryToken(rng);
  const stage1: Stage1Result[] = members.map((member, i) => {
    const outcome = outcomes1[i]!;
    if (!outcome.ok) {
      excluded.push({ member: member.id, stage: 1, reason: outcome.error.reason, message: outcome.error.message });
      return { member: member.id, model: member.modelId, text: null, usage: null, latencyMs: outcome.latencyMs, error: outcome.error, suspectedInjection: false, injectionSignals: [] };
    }
    const signals = detectInjection(outcome.text, boundary);
    return { member: member.id, model: member.modelId, text: outcome.text, usage: outcome.usage, latencyMs: outcome.latencyMs, error: null, suspectedInjection: signals.length > 0, injectionSignals: signals };
  });
  const answered = stage1.filter((s) => s.text !== null);
  emit({ type: 'stage-finished', stage: 1, succeeded: answered.length, failed: members.length - answered.length });
  checkAborted();
  if (answered.length < quorum) {
    const failures = stage1.filter((s) => s.error).map((s) => `${s.member}: ${s.error!.reason === 'timeout' ? `timed out after ${timeouts.stage1Ms} ms` : s.error!.message.replace(/\.+\s*$/, '')}`);
    throw new CouncilError({
      code: 'QUORUM_NOT_MET',
      message: `Only ${answered.length} of ${members.length} members answered; the quorum is ${quorum}. ${failures.join('; ')}. Fix or replace the failing members, raise timeouts.stage1Ms, or lower the quorum.`,
    });
  }
  const candidates = answered.map((s) => s.member);
  const textOf = new Map(answered.map((s) => [s.member, s.text!]));
  const memberById = new Map(members.map((m) => [m.id, m]));

  // Stage 2: anonymised, ordered, boundary-marked reviews.
  let reviewers = candidates;
  if (options.maxReviewers !== undefined && options.maxReviewers < reviewers.length) {
    const sampled = new Set(shuffle(reviewers, rng).slice(0, options.maxReviewers));
    reviewers = reviewers.filter((r) => sampled.has(r));
  }
  const orders = createPresentationOrders({ candidates, reviewerCount: reviewers.length, mode: order, rng });
  emit({ type: 'stage-started', stage: 2, calls: reviewers.length });
  const stage2: Stage2Result[] = await Promise.all(
    reviewers.map(async (reviewer, i) => {
      const shown = selfReview === 'omit' ? orders[i]!.filter((c) => c !== reviewer) : orders[i]!;
      const labelToModel = createLabelToModel(shown);
      const labels = Object.keys(labelToModel);
      const entries = labels.map((label) => ({ label, text: textOf.get(labelToModel[label]!.model)! }));
      const prompt = buildEvaluationPrompt({ config, query: options.query, boundary, entries });
      const member = memberById.get(reviewer)!;
      const council: CouncilCallContext = { stage: 'review', responses: entries };
      const outcome = await run({ stage: 2, member, messages: [{ role: 'user', content: prompt }], council, timeoutMs: timeouts.stage2Ms });
      const base = { reviewer, model: member.modelId, order: shown, labelToModel, latencyMs: outcome.latencyMs };
      if (!outcome.ok) return { ...base, evaluation: null, text: null, warnings: [], usage: null, error: outcome.error };
      const parsed = parseEvaluation(outcome.text, labels);
      const toId = (label: string): string => labelToModel[label]!.model;
      const scores: Record<string, number> = {};
      for (const [label, score] of Object.entries(parsed.scores)) scores[toId(label)] = score;
      const critiques: Record<string, Critique> = {};
      for (const [label, critique] of Object.entries(parsed.critiques)) critiques[toId(label)] = critique;
      return {
        ...base,
        evaluation: { ranking: parsed.ranking.map(toId), scores, critiques, abstained: parsed.abstained, format: parsed.format },
        text: outcome.text,
        warnings: parsed.warnings,
        usage: outcome.usage,
        error: null,
      };
    }),
  );
  for (const review of stage2) {
    if (review.error) excluded.push({ member: review.reviewer, stage: 2, reason: review.error.reason, message: review.error.message });
  }
  emit({ type: 'stage-finished', stage: 2, succeeded: stage2.filter((r) => r.evaluation).length, failed: stage2.filter((r) => !r.evaluation).length });
  checkAborted();

  // Scoring.
  const ballots: Ballot[] = stage2
    .filter((r) => r.evaluation !== null)
    .map((r) => (r.evaluation!.abstained ? { reviewer: r.reviewer, ranking: [], abstained: true } : { reviewer: r.reviewer, ranking: r.evaluation!.ranking, scores: r.evaluation!.scores }));
  const leaderboard = calculateBordaScores(ballots, { candidates, excludeSelfVotes });
  if (!leaderboard.some((entry) => entry.voteCount > 0)) {
    warnings.push('No reviewer produced a usable ranking, so the leaderboard has no votes; see stage2[].warnings and excluded.');
  }
  const agreement: SessionAgreement = { kendallW: null, kendallWPValue: null, krippendorffAlpha: null, ballots: ballots.filter((b) => !b.abstained && b.ranking.length > 0).length };
  try {
    const w = kendallW(ballots, { candidates });
    agreement.kendallW = w.w;
    agreement.kendallWPValue = w.pValue;
  } catch (error) {
    warnings.push(`Kendall's W not computable: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    agreement.krippendorffAlpha = krippendorffAlpha(ballots, { candidates, excludeSelfVotes }).alpha;
  } catch (error) {
    warnings.push(`Krippendorff's alpha not computable: ${error instanceof Error ? error.message : String(error)}`);
  }

  // Stage 3: the chairman, then each fallback in turn.
  const rankOf = new Map(leaderboard.map((e) => [e.candidate, e]));
  const inputs: ChairmanInput[] = candidates.map((member) => {
    const entry = rankOf.get(member);
    const critiques = stage2.filter((r) => r.reviewer !== member && r.evaluation?.critiques[member]).map((r) => r.evaluation!.critiques[member]!);
    return { member, text: textOf.get(member)!, ...(entry && entry.voteCount > 0 ? { rank: entry.finalRank, bordaScore: entry.bordaScore } : {}), critiques };
  });
  const chairmanPrompt = buildChairmanPrompt({ config, query: options.query, inputs, directive, mode });
  const chairmanCouncil: CouncilCallContext = { stage: 'chairman', answers: inputs.map((i) => ({ id: i.member, text: i.text })) };
  emit({ type: 'stage-started', stage: 3, calls: 1 });
  let synthesis: SessionSynthesis | null = null;
  for (let i = 0; i < chairmen.length && synthesis === null; i++) {
    const chairman = chairmen[i]!;
    const messages: Message[] = chairman.systemPrompt ? [{ role: 'system', content: chairman.systemPrompt }] : [];
    messages.push({ role: 'user', content: chairmanPrompt });
    const outcome = await run({ stage: 3, member: chairman, messages, council: chairmanCouncil, timeoutMs: timeouts.stage3Ms });
    if (outcome.ok) {
      const parsed = parseContributors(outcome.text, candidates);
      synthesis = {
        text: parsed.text,
        contributors: parsed.contributors,
        winner: mode === 'voting' ? parsed.winner : null,
        strategy,
        mode,
        model: chairman.id,
        warnings: mode === 'voting' && parsed.winner === null ? [...parsed.warnings, 'the chairman reported no winner.'] : parsed.warnings,
        usage: outcome.usage,
        latencyMs: outcome.latencyMs,
      };
      break;
    }
    excluded.push({ member: chairman.id, stage: 3, reason: outcome.error.reason, message: outcome.error.message });
    if (signal?.aborted) break;
    const next = chairmen[i + 1];
    if (next) emit({ type: 'model-retried', stage: 3, member: next.id, model: next.modelId, previous: chairman.id, reason: outcome.error.reason });
  }
  emit({ type: 'stage-finished', stage: 3, succeeded: synthesis ? 1 : 0, failed: excluded.filter((e) => e.stage === 3).length });
  checkAborted();
  if (!synthesis) warnings.push(`No chairman answered (${chairmen.map((c) => c.id).join(', ')}); the answers, reviews and leaderboard are kept. Add chairmanFallbacks or check the chairman id.`);

  // Bias audit (ADR-015), per-reviewer positions from ADR-017's orders.
  let biasAudit: BiasAuditResult | null = null;
  let biasIndicators: CouncilBiasIndicators | null = null;
  if (biasAuditEnabled) {
    const scores: Record<string, Record<string, number | null>> = {};
    const positions: Record<string, Record<string, number>> = {};
    for (const review of stage2) {
      if (!review.evaluation || review.evaluation.abstained) continue;
      scores[review.reviewer] = Object.fromEntries(review.order.map((c) => [c, review.evaluation!.scores[c] ?? null]));
      positions[review.reviewer] = Object.fromEntries(review.order.map((c, index) => [c, index]));
    }
    try {
      biasAudit = runBiasAudit({ responses: answered.map((s) => ({ candidate: s.member, text: s.text! })), scores, positions }, options.biasAuditThresholds);
      const summary = summarizeSession(biasAudit);
      biasIndicators = { ...summary, flags: stage1.some((s) => s.suspectedInjection) ? [...summary.flags, 'SUSPECTED_INJECTION'] : [...summary.flags] };
    } catch (error) {
      warnings.push(`The bias audit could not run: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const sessionConfig: SessionConfig = {
    members: members.map((m) => m.id),
    chairman: chairmen[0]!.id,
    chairmanFallbacks: chairmen.slice(1).map((c) => c.id),
    strategy,
    goal: options.goal ?? null,
    mode,
    order,
    seed: options.seed ?? null,
    quorum,
    excludeSelfVotes,
    selfReview,
    maxReviewers: options.maxReviewers ?? null,
    timeouts,
    biasAudit: biasAuditEnabled,
  };
  return {
    sessionId,
    timestamp,
    query: options.query,
    config: sessionConfig,
    stage1,
    stage2,
    leaderboard,
    agreement,
    synthesis,
    biasAudit,
    biasIndicators,
    excluded,
    usage: sumUsage([...stage1.map((s) => s.usage), ...stage2.map((r) => r.usage), synthesis?.usage ?? null]),
    warnings,
  };
}
