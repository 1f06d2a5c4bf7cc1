import type { Message, ResponseFormat } from '@council/providers';
import type { CallOutcome } from './call-model.js';
import type { JuryDecision } from './jury-decision.js';
import { parseJuryDecision } from './parse-jury-decision.js';
import type { JurorReadPath } from './session-verdict.js';

/** A juror's decision as stage 1 read it (recorded on its `Stage1Result` in jury mode). */
export interface JurorDecisionRead {
  /** Null when none could be read (`read: 'unread'`): the verdict counts it as `unclear`. */
  decision: JuryDecision | null;
  confidence: number | null;
  reasons: string[];
  read: Exclude<JurorReadPath, 'failed'>;
  /** The juror's reply to the repair request, when one was sent (null when that call failed). */
  repairText?: string | null;
}

/** The one repair request a juror gets when no decision could be read from its reply. */
export function buildDecisionRepairRequest(): string {
  return 'Your reply above could not be read: it has no decision in the required form. Reply now with only one JSON object and nothing else: {"decision": "approve" | "reject" | "unclear", "confidence": <0 to 1>, "reasons": ["<reason>", …]}.';
}

/** The schema of a structured repair reply: the decision, a confidence and reasons. */
export function decisionResponseFormat(): ResponseFormat {
  return {
    type: 'json',
    name: 'council_decision',
    description: "A juror's decision on the question: approve, reject or unclear, with a confidence and reasons.",
    schema: {
      type: 'object',
      properties: {
        decision: { type: 'string', enum: ['approve', 'reject', 'unclear'] },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        reasons: { type: 'array', items: { type: 'string' } },
      },
      required: ['decision', 'confidence', 'reasons'],
      additionalProperties: false,
    },
  };
}

/**
 * A juror's decision from its stage-1 reply; when none can be read, one repair request (the reply and the request
 * follow the original prompt, so the evidence stays between the same markers) and its reply read instead. With
 * `structured` (the member's model constrains output), the repair asks for `decisionResponseFormat`'s JSON, and again
 * without it when the provider refuses structured output. The outcomes of the calls made (the repair's, when one was
 * sent) come back with it, for usage and latency.
 */
export async function readJuryDecision(options: {
  text: string;
  messages: readonly Message[];
  ask: (messages: Message[], responseFormat?: ResponseFormat) => Promise<CallOutcome>;
  structured?: boolean;
}): Promise<{ read: JurorDecisionRead; repairs: CallOutcome[] }> {
  const first = parseJuryDecision(options.text);
  if (first.decision !== null) {
    const { format, ...rest } = first;
    return { read: { ...rest, read: format === 'line' ? 'line' : 'json' }, repairs: [] };
  }
  const conversation: Message[] = [
    ...options.messages,
    { role: 'assistant', content: options.text },
    { role: 'user', content: buildDecisionRepairRequest() },
  ];
  const repairs: CallOutcome[] = [
    await options.ask(conversation, options.structured === true ? decisionResponseFormat() : undefined),
  ];
  const refused = repairs[0]!;
  if (options.structured === true && !refused.ok && refused.error.code === 'STRUCTURED_OUTPUT_UNSUPPORTED')
    repairs.push(await options.ask(conversation));
  const repair = repairs[repairs.length - 1]!;
  const repairText = repair.ok ? repair.text : null;
  const second = repairText === null ? undefined : parseJuryDecision(repairText);
  if (second === undefined || second.decision === null)
    return { read: { decision: null, confidence: null, reasons: [], read: 'unread', repairText }, repairs };
  const { format, ...rest } = second;
  return {
    read: { ...rest, read: format === 'line' ? 'line-repaired' : 'json-repaired', repairText },
    repairs,
  };
}
