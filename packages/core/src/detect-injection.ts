/**
 * Why an answer looks like it is trying to steer its reviewers: it contains the session's boundary
 * marker (or a forged one), a `FINAL RANKING` section or ranking JSON of its own, or instructions
 * addressed to reviewers.
 */
export type InjectionSignal = 'boundary-marker' | 'final-ranking-section' | 'ranking-json' | 'reviewer-instructions';

const forgedMarker = /<<<[^\n>]{0,80}?(?:response\s+[a-z]{1,4}|end)\s*>>>/i;
const reviewerInstructions = [
  /\bignore\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|other)\s+(?:instructions|prompts|responses|answers|rules)/i,
  /\b(?:note|message|instructions?|attention)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:reviewers?|evaluators?|judges?|graders?|rankers?|ai\s+(?:reviewers?|judges?))/i,
  /\b(?:reviewers?|evaluators?|judges?|graders?)(?:[ \t]*[:,])?\s+(?:you\s+)?(?:must|should|shall|will|are\s+(?:required|instructed)\s+to)\s+(?:rank|rate|score|place|put|choose|select|prefer)/i,
  /\b(?:rank|rate|place|put|score)\s+(?:this|me|my)\s+(?:(?:response|answer)\s+)?(?:first|highest|#\s*1|number\s+one|at\s+the\s+top|above)/i,
  /\bgive\s+(?:this|me|my)\s+(?:(?:response|answer)\s+)?(?:a\s+)?(?:score|rating)\s+of\s+(?:10|ten)\b/i,
  /\b(?:disregard|override)\s+(?:your|the)\s+(?:instructions|system\s+prompt|evaluation\s+criteria)/i,
];

/** A line that opens a `FINAL RANKING` section naming a label on it or on the next non-blank line. */
function hasFinalRankingSection(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!/^[\s#*_>]*final\s+ranking/i.test(lines[i]!)) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    if (
      /\bresponse\s+[a-z]{1,4}\b/i.test(lines[i]!) ||
      (j < lines.length && /\bresponse\s+[a-z]{1,4}\b|^\s*(?:\d{1,3}[.)]|[-*•])\s*\S/i.test(lines[j]!))
    )
      return true;
  }
  return false;
}

/** The injection signals found in one answer; empty when it looks clean. `boundary` is the session's marker token. */
export function detectInjection(text: string, boundary: string): InjectionSignal[] {
  const signals: InjectionSignal[] = [];
  if ((boundary !== '' && text.includes(boundary)) || forgedMarker.test(text)) signals.push('boundary-marker');
  if (hasFinalRankingSection(text)) signals.push('final-ranking-section');
  if (/["']ranking["']\s*:\s*\[/i.test(text)) signals.push('ranking-json');
  if (reviewerInstructions.some((pattern) => pattern.test(text))) signals.push('reviewer-instructions');
  return signals;
}
