import type { Message, ResponseFormat, Usage } from '@council/providers';
import type { CallOutcome } from './call-model.js';
import type { ResolvedMember } from './council-member.js';
import type { Stage1Result } from './council-session.js';
import type { EmitCouncilEvent } from './create-event-emitter.js';
import type { ModelCaller } from './create-model-caller.js';
import { detectInjection } from './detect-injection.js';
import { memberMessages } from './member-messages.js';
import { readJuryDecision } from './read-jury-decision.js';
import type { CouncilPlan } from './resolve-council-plan.js';

export interface RunGenerationStageOptions {
  plan: Pick<CouncilPlan, 'members' | 'query' | 'timeouts'> & Partial<Pick<CouncilPlan, 'structuredReviews'>>;
  call: ModelCaller;
  emit: EmitCouncilEvent;
  /** The session's boundary token: an answer that contains it is flagged as a suspected injection. */
  boundary: string;
  /** Receives each member's result as its call ends (`RunCouncilOptions.onAnswer`); must not throw. */
  onAnswer?: ((result: Stage1Result) => void) | undefined;
  /** Jury mode: read each answer's decision (with one repair request when it cannot be read) into `decision`. */
  jury?: boolean;
}

/** A stage-1 result with its decision read, the repair's usage and latency added to the answer's. */
async function withDecision(
  result: Stage1Result,
  options: {
    messages: Message[];
    ask: (messages: Message[], responseFormat?: ResponseFormat) => Promise<CallOutcome>;
    structured: boolean;
  },
): Promise<Stage1Result> {
  if (result.text === null) return result;
  const { read, repairs } = await readJuryDecision({ text: result.text, ...options });
  let usage = result.usage;
  let latencyMs = result.latencyMs;
  for (const repair of repairs) {
    latencyMs += repair.latencyMs;
    if (repair.ok) usage = addUsage(usage, repair.usage);
  }
  return { ...result, usage, latencyMs, decision: read };
}

function addUsage(a: Usage | null, b: Usage): Usage {
  if (a === null) return b;
  const total: Usage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  for (const key of ['reasoningTokens', 'cachedTokens', 'costUsd'] as const) {
    if (a[key] !== undefined || b[key] !== undefined) total[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return total;
}

function stage1Result(member: ResolvedMember, outcome: CallOutcome, boundary: string): Stage1Result {
  if (!outcome.ok) {
    return {
      member: member.id,
      model: member.modelId,
      text: null,
      usage: null,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      suspectedInjection: false,
      injectionSignals: [],
    };
  }
  const signals = detectInjection(outcome.text, boundary);
  return {
    member: member.id,
    model: member.modelId,
    text: outcome.text,
    usage: outcome.usage,
    latencyMs: outcome.latencyMs,
    error: null,
    suspectedInjection: signals.length > 0,
    injectionSignals: signals,
  };
}

/** Stage 1 (generation): every member answers the query in parallel; failures are recorded, not thrown. */
export async function runGenerationStage(options: RunGenerationStageOptions): Promise<Stage1Result[]> {
  const { plan, call, emit, boundary, onAnswer } = options;
  emit({ type: 'stage-started', stage: 1, calls: plan.members.length });
  const stage1 = await Promise.all(
    plan.members.map(async (member) => {
      const messages = memberMessages(member, plan.query);
      const ask = (messages: Message[], responseFormat?: ResponseFormat) =>
        call({
          stage: 1,
          member,
          messages,
          council: { stage: 'answer' },
          timeoutMs: plan.timeouts.stage1Ms,
          ...(responseFormat === undefined ? {} : { responseFormat }),
        });
      const outcome = await ask(messages);
      const answered = stage1Result(member, outcome, boundary);
      // A decision repair is asked for as JSON where the member's model can constrain its output (as reviews are).
      const structured = plan.structuredReviews !== false && member.model.supportsStructuredOutput === true;
      const result = options.jury === true ? await withDecision(answered, { messages, ask, structured }) : answered;
      onAnswer?.(result);
      return result;
    }),
  );
  const succeeded = stage1.filter((s) => s.text !== null).length;
  emit({ type: 'stage-finished', stage: 1, succeeded, failed: stage1.length - succeeded });
  return stage1;
}

/** The answers the later stages work on, by member id, in member order. */
export function answeredTexts(stage1: readonly Stage1Result[]): Map<string, string> {
  return new Map(stage1.filter((s) => s.text !== null).map((s) => [s.member, s.text!]));
}
