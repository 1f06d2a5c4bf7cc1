import type { Message } from '@council/providers';
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

/**
 * A juror's decision from its stage-1 reply; when none can be read, one repair request (the reply and the request
 * follow the original prompt, so the evidence stays between the same markers) and its reply read instead. The
 * outcomes of the calls made (the repair's, when one was sent) come back with it, for usage and latency.
 */
export async function readJuryDecision(options: {
  text: string;
  messages: readonly Message[];
  ask: (messages: Message[]) => Promise<CallOutcome>;
}): Promise<{ read: JurorDecisionRead; repairs: CallOutcome[] }> {
  const first = parseJuryDecision(options.text);
  if (first.decision !== null) {
    const { format, ...rest } = first;
    return { read: { ...rest, read: format === 'line' ? 'line' : 'json' }, repairs: [] };
  }
  const repair = await options.ask([
    ...options.messages,
    { role: 'assistant', content: options.text },
    { role: 'user', content: buildDecisionRepairRequest() },
  ]);
  const repairText = repair.ok ? repair.text : null;
  const second = repairText === null ? undefined : parseJuryDecision(repairText);
  if (second === undefined || second.decision === null)
    return { read: { decision: null, confidence: null, reasons: [], read: 'unread', repairText }, repairs: [repair] };
  const { format, ...rest } = second;
  return {
    read: { ...rest, read: format === 'line' ? 'line-repaired' : 'json-repaired', repairText },
    repairs: [repair],
  };
}
