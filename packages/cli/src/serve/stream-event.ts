import type { CouncilEvent, Stage1Result, Stage2Result, SynthesisTextPart } from '@council/core';

/** The event types of a run's stream (`GET /api/sessions/:id/events`), in the API contract's words. */
export type StreamEventType =
  CouncilEvent['type'] | 'answer' | 'review' | 'synthesis-text' | 'session' | 'error' | 'cancelled' | 'done';

/** One event of a run: its sequence number in the run (1, 2, 3…), its type and its JSON data. */
export interface StreamEvent {
  id: number;
  type: StreamEventType;
  data: Record<string, unknown>;
}

export type StreamEventBody = Omit<StreamEvent, 'id'>;

/** A council event as the stream carries it: `model-finished` without its usage (the `usage` event has the totals). */
export function streamEventFromCouncil(event: CouncilEvent): StreamEventBody {
  if (event.type === 'model-finished') {
    const { type, usage: _usage, ...data } = event;
    return { type, data };
  }
  const { type, ...data } = event;
  return { type, data };
}

/** A stage-1 answer as it arrives; null for a failed call (its `model-failed` event says why). */
export function answerEvent(result: Stage1Result): StreamEventBody | null {
  if (result.text === null) return null;
  return {
    type: 'answer',
    data: { member: result.member, model: result.model, text: result.text, latencyMs: result.latencyMs },
  };
}

/**
 * A review as it arrives, under the anonymous labels the reviewer saw ("Response B" best first): which member
 * a label stands for is shown only with the finished session. A failed or abstaining review ranks nothing. Its
 * scores and critiques (strengths, weaknesses) come by label too, null when it gave none.
 */
export function reviewEvent(result: Stage2Result): StreamEventBody {
  const labelOf = new Map(Object.entries(result.labelToModel).map(([label, entry]) => [entry.model, label]));
  const evaluation = result.evaluation;
  const ranking =
    evaluation === null
      ? []
      : evaluation.ranking.map((member) => labelOf.get(member)).filter((l): l is string => l !== undefined);
  const scores =
    evaluation === null || Object.keys(evaluation.scores).length === 0
      ? null
      : Object.fromEntries(
          Object.entries(evaluation.scores).flatMap(([member, score]) =>
            labelOf.has(member) ? [[labelOf.get(member)!, score]] : [],
          ),
        );
  const critiques =
    evaluation === null || Object.keys(evaluation.critiques).length === 0
      ? null
      : Object.fromEntries(
          Object.entries(evaluation.critiques).flatMap(([member, critique]) =>
            labelOf.has(member) ? [[labelOf.get(member)!, critique]] : [],
          ),
        );
  return { type: 'review', data: { reviewer: result.reviewer, model: result.model, ranking, scores, critiques } };
}

export function synthesisTextEvent(part: SynthesisTextPart): StreamEventBody {
  return { type: 'synthesis-text', data: { chairman: part.chairman, text: part.text } };
}

/** The text of one event on the wire (`text/event-stream`). */
export function formatStreamEvent(event: StreamEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
