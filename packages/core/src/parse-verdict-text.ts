import type { JuryDecision } from './jury-decision.js';
import { normalizeDecision } from './parse-jury-decision.js';

export interface ParsedVerdictText {
  /** The chairman's own decision from its `Decision:` line; null when it gave none. */
  decision: JuryDecision | null;
  /** The text without the decision line and the dissent section. */
  rationale: string;
  /** The dissent section's text (without its heading); null when there is none. */
  dissent: string | null;
}

const decisionLine = /^[\s#>*_-]*(?:my\s+)?(?:own\s+)?decision[*_\s]*:[*_\s]*([A-Za-z]+)[*_.!\s]*$/im;
const dissentHeading =
  /^[ \t]{0,3}(?:#{1,6}[ \t]*|\*\*|__)?[ \t]*dissent(?:ing\s+(?:opinion|view))?[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*$/im;
const dissentInline = /^[ \t]{0,3}(?:\*\*|__)?dissent(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?[ \t]*(\S.*)$/im;

/**
 * Reads the chairman's jury reply: its `Decision: approve|reject|unclear` line (the first), and its dissent — the
 * text after a heading line `## Dissent` (any level, or `**Dissent**`), or of a line `Dissent: …` to the end. The
 * rationale is the rest. Never throws.
 */
export function parseVerdictText(text: string): ParsedVerdictText {
  let body = text;
  let decision: JuryDecision | null = null;
  const line = decisionLine.exec(body);
  if (line !== null) {
    decision = normalizeDecision(line[1]) ?? null;
    if (decision !== null) body = `${body.slice(0, line.index)}${body.slice(line.index + line[0].length)}`;
  }
  let dissent: string | null = null;
  const heading = dissentHeading.exec(body);
  const inline = heading === null ? dissentInline.exec(body) : null;
  if (heading !== null) {
    dissent = body.slice(heading.index + heading[0].length).trim();
    body = body.slice(0, heading.index);
  } else if (inline !== null) {
    dissent = `${inline[1]!}${body.slice(inline.index + inline[0].length)}`.trim();
    body = body.slice(0, inline.index);
  }
  return { decision, rationale: body.replace(/\n{3,}/g, '\n\n').trim(), dissent: dissent === '' ? null : dissent };
}
