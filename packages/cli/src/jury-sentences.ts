import type { EvidenceReport, SessionVerdict } from '@council/core';

// The jury's sentences that the terminal (`ask`, `history show`, MCP), the gate's summary and `council serve`'s page
// all say. Types only from core: the page's bundle imports this file, and core's index must not enter it.

/** Who could flip the verdict alone, in one sentence. */
export function flipSentence(verdict: SessionVerdict): string {
  if (!verdict.flipSensitive) return 'No single member changing its vote would change the verdict.';
  const who = verdict.pivotal.join(', ');
  return `Fragile: ${verdict.pivotal.length === 1 ? `${who} changing its vote` : `any one of ${who} changing its vote`} would change the verdict.`;
}

/** Per evidence item: what was cut, and which lines looked like injections; empty when nothing is to say. */
export function evidenceNotes(evidence: readonly EvidenceReport[] | undefined): string[] {
  const notes: string[] = [];
  for (const item of evidence ?? []) {
    if (item.cut)
      notes.push(
        item.keptChars === 0
          ? `evidence ${item.name}: left out by the evidence cap (${item.chars} characters).`
          : `evidence ${item.name}: cut to ${item.keptChars} of ${item.chars} characters by the evidence cap.`,
      );
    for (const injection of item.injections)
      notes.push(
        `evidence ${item.name}:${injection.line}: looks like a prompt injection (${injection.signals.join(', ')}); the members were told to treat it as data.`,
      );
  }
  return notes;
}
