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
import type { SynthesisTextPart } from './run-council-options.js';

export interface RunSynthesisStageOptions {
  plan: Pick<CouncilPlan, 'config' | 'query' | 'chairmen' | 'strategy' | 'directive' | 'mode' | 'timeouts'>;
  call: ModelCaller;
  emit: EmitCouncilEvent;
  /** The answers with their standing and critiques (`chairmanInputs`). */
  inputs: readonly ChairmanInput[];
  abortSignal: AbortSignal | undefined;
  /** Receives the synthesis as each chairman writes it (`RunCouncilOptions.onSynthesisText`). */
  onText?: ((part: SynthesisTextPart) => void) | undefined;
}

export interface SynthesisStageResult {
  /** Null when no chairman answered. */
  synthesis: SessionSynthesis | null;
  /** The chairmen that failed, in the order they were tried. */
  excluded: Exclusion[];
  warnings: string[];
}

/**
 * Voting mode's winner (design §3: the chairman "reports the Voting Results (Winner)"): the member the
 * chairman named; when it named none, the single Borda leader, said so in a warning; when there is no
 * single leader (a tie for first, or an unranked session), none, also said so.
 */
function votingWinner(
  named: string | null,
  inputs: readonly ChairmanInput[],
): Pick<SessionSynthesis, 'winner' | 'winnerSource' | 'warnings'> {
  if (named !== null) return { winner: named, winnerSource: 'chairman', warnings: [] };
  const leaders = inputs.filter((i) => i.rank === 1);
  if (leaders.length === 1) {
    const leader = leaders[0]!;
    const score = leader.bordaScore === undefined ? '' : ` (Borda score ${leader.bordaScore.toFixed(3)})`;
    return {
      winner: leader.member,
      winnerSource: 'borda-leader',
      warnings: [`the chairman reported no winner; the winner is the Borda leader, ${leader.member}${score}.`],
    };
  }
  const why =
    leaders.length > 1
      ? `${leaders.map((l) => l.member).join(', ')} tie for first place on the leaderboard`
      : 'the session was not ranked';
  return {
    winner: null,
    winnerSource: null,
    warnings: [`the chairman reported no winner, and there is no Borda leader to fall back on: ${why}.`],
  };
}

function toSynthesis(
  outcome: Extract<CallOutcome, { ok: true }>,
  options: { plan: RunSynthesisStageOptions['plan']; chairman: string; inputs: readonly ChairmanInput[] },
): SessionSynthesis {
  const { plan, chairman, inputs } = options;
  const parsed = parseContributors(
    outcome.text,
    inputs.map((i) => i.member),
  );
  const voting =
    plan.mode === 'voting' ? votingWinner(parsed.winner, inputs) : { winner: null, winnerSource: null, warnings: [] };
  return {
    text: parsed.text,
    contributors: parsed.contributors,
    winner: voting.winner,
    winnerSource: voting.winnerSource,
    strategy: plan.strategy,
    mode: plan.mode,
    model: chairman,
    warnings: [...parsed.warnings, ...voting.warnings],
    usage: outcome.usage,
    latencyMs: outcome.latencyMs,
  };
}

/**
 * Stage 3 (synthesis): the chairman answers the strategy's prompt and credits its contributors; when it
 * fails, each fallback takes over in turn (`model-retried`), until one answers or the session is aborted.
 */
export async function runSynthesisStage(options: RunSynthesisStageOptions): Promise<SynthesisStageResult> {
  const { plan, call, emit, inputs, abortSignal, onText } = options;
  const prompt = buildChairmanPrompt({
    config: plan.config,
    query: plan.query,
    inputs,
    directive: plan.directive,
    mode: plan.mode,
  });
  const council: CouncilCallContext = {
    stage: 'chairman',
    answers: inputs.map((i) => ({ id: i.member, text: i.text })),
  };
  const excluded: Exclusion[] = [];
  let synthesis: SessionSynthesis | null = null;
  emit({ type: 'stage-started', stage: 3, calls: 1 });
  for (const [i, chairman] of plan.chairmen.entries()) {
    const stream =
      onText === undefined
        ? {}
        : {
            onTextDelta: (text: string) =>
              onText({ chairman: chairman.id, strategy: plan.strategy, mode: plan.mode, text }),
          };
    const outcome = await call({
      stage: 3,
      member: chairman,
      messages: memberMessages(chairman, prompt),
      council,
      timeoutMs: plan.timeouts.stage3Ms,
      ...stream,
    });
    if (outcome.ok) {
      synthesis = toSynthesis(outcome, { plan, chairman: chairman.id, inputs });
      break;
    }
    excluded.push({ member: chairman.id, stage: 3, reason: outcome.error.reason, message: outcome.error.message });
    if (abortSignal?.aborted) break;
    const next = plan.chairmen[i + 1];
    if (next)
      emit({
        type: 'model-retried',
        stage: 3,
        member: next.id,
        model: next.modelId,
        previous: chairman.id,
        reason: outcome.error.reason,
      });
  }
  emit({ type: 'stage-finished', stage: 3, succeeded: synthesis ? 1 : 0, failed: excluded.length });
  const warnings = synthesis
    ? []
    : [
        `No chairman answered (${plan.chairmen.map((c) => c.id).join(', ')}); the answers, reviews and leaderboard are kept. Add chairmanFallbacks or check the chairman id.`,
      ];
  return { synthesis, excluded, warnings };
}
