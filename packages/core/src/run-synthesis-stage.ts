import type { CouncilCallContext } from '@council/providers';
import { buildChairmanPrompt } from './build-chairman-prompt.js';
import type { ChairmanInput } from './build-chairman-prompt.js';
import type { CallOutcome } from './call-model.js';
import type { Exclusion, SessionSynthesis } from './council-session.js';
import type { EmitCouncilEvent } from './create-event-emitter.js';
import type { ModelCaller } from './create-model-caller.js';
import { memberMessages } from './member-messages.js';
import { parseContributors } from './parse-contributors.js';
import type { CouncilPlan } from './resolve-council-plan.js';

export interface RunSynthesisStageOptions {
  plan: Pick<CouncilPlan, 'config' | 'query' | 'chairmen' | 'strategy' | 'directive' | 'mode' | 'timeouts'>;
  call: ModelCaller;
  emit: EmitCouncilEvent;
  /** The answers with their standing and critiques (`chairmanInputs`). */
  inputs: readonly ChairmanInput[];
  abortSignal: AbortSignal | undefined;
}

export interface SynthesisStageResult {
  /** Null when no chairman answered. */
  synthesis: SessionSynthesis | null;
  /** The chairmen that failed, in the order they were tried. */
  excluded: Exclusion[];
  warnings: string[];
}

function toSynthesis(outcome: Extract<CallOutcome, { ok: true }>, options: { plan: RunSynthesisStageOptions['plan']; chairman: string; candidates: readonly string[] }): SessionSynthesis {
  const { plan, chairman, candidates } = options;
  const parsed = parseContributors(outcome.text, candidates);
  return {
    text: parsed.text,
    contributors: parsed.contributors,
    winner: plan.mode === 'voting' ? parsed.winner : null,
    strategy: plan.strategy,
    mode: plan.mode,
    model: chairman,
    warnings: plan.mode === 'voting' && parsed.winner === null ? [...parsed.warnings, 'the chairman reported no winner.'] : parsed.warnings,
    usage: outcome.usage,
    latencyMs: outcome.latencyMs,
  };
}

/**
 * Stage 3 (synthesis): the chairman answers the strategy's prompt and credits its contributors; when it
 * fails, each fallback takes over in turn (`model-retried`), until one answers or the session is aborted.
 */
export async function runSynthesisStage(options: RunSynthesisStageOptions): Promise<SynthesisStageResult> {
  const { plan, call, emit, inputs, abortSignal } = options;
  const candidates = inputs.map((i) => i.member);
  const prompt = buildChairmanPrompt({ config: plan.config, query: plan.query, inputs, directive: plan.directive, mode: plan.mode });
  const council: CouncilCallContext = { stage: 'chairman', answers: inputs.map((i) => ({ id: i.member, text: i.text })) };
  const excluded: Exclusion[] = [];
  let synthesis: SessionSynthesis | null = null;
  emit({ type: 'stage-started', stage: 3, calls: 1 });
  for (const [i, chairman] of plan.chairmen.entries()) {
    const outcome = await call({ stage: 3, member: chairman, messages: memberMessages(chairman, prompt), council, timeoutMs: plan.timeouts.stage3Ms });
    if (outcome.ok) {
      synthesis = toSynthesis(outcome, { plan, chairman: chairman.id, candidates });
      break;
    }
    excluded.push({ member: chairman.id, stage: 3, reason: outcome.error.reason, message: outcome.error.message });
    if (abortSignal?.aborted) break;
    const next = plan.chairmen[i + 1];
    if (next) emit({ type: 'model-retried', stage: 3, member: next.id, model: next.modelId, previous: chairman.id, reason: outcome.error.reason });
  }
  emit({ type: 'stage-finished', stage: 3, succeeded: synthesis ? 1 : 0, failed: excluded.length });
  const warnings = synthesis ? [] : [`No chairman answered (${plan.chairmen.map((c) => c.id).join(', ')}); the answers, reviews and leaderboard are kept. Add chairmanFallbacks or check the chairman id.`];
  return { synthesis, excluded, warnings };
}
