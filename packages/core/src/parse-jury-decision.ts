import { balancedObjectEnd, parseJsonObject } from './json-object-in-text.js';
import type { JuryDecision } from './jury-decision.js';

/** A juror's decision as read from its reply. */
export interface ParsedJuryDecision {
  /** Null when no decision could be read (the caller counts the juror as `unclear` and says so). */
  decision: JuryDecision | null;
  /** 0 to 1; null when none was given or it was not a number in range. */
  confidence: number | null;
  /** The juror's reasons, as given (empty when none). */
  reasons: string[];
  /** Where the decision came from: the JSON object, a `DECISION:` line, or nowhere. */
  format: 'json' | 'line' | 'none';
}

const synonyms: Record<string, JuryDecision> = {
  approve: 'approve',
  approved: 'approve',
  approval: 'approve',
  accept: 'approve',
  accepted: 'approve',
  yes: 'approve',
  pass: 'approve',
  reject: 'reject',
  rejected: 'reject',
  rejection: 'reject',
  deny: 'reject',
  denied: 'reject',
  no: 'reject',
  fail: 'reject',
  unclear: 'unclear',
  uncertain: 'unclear',
  undecided: 'unclear',
  abstain: 'unclear',
  unsure: 'unclear',
};

/** `approve`, `Approved.`, `**REJECT**` → the decision; anything else → undefined. */
export function normalizeDecision(raw: unknown): JuryDecision | undefined {
  if (typeof raw !== 'string') return undefined;
  const word = raw
    .trim()
    .toLowerCase()
    .replace(/^[*_`"'\s]+|[*_`"'.!\s]+$/g, '');
  return synonyms[word];
}

function confidenceOf(raw: unknown): number | null {
  const value = typeof raw === 'string' ? Number(raw.trim().replace(/%$/, '')) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  if (value <= 1) return value;
  // A percentage ("85", "85%"): the prompt asks for 0 to 1, models often answer in percent.
  return value <= 100 ? value / 100 : null;
}

function reasonsOf(raw: unknown): string[] {
  if (typeof raw === 'string') return raw.trim() === '' ? [] : [raw.trim()];
  if (!Array.isArray(raw)) return [];
  return raw.filter((r): r is string => typeof r === 'string' && r.trim() !== '').map((r) => r.trim());
}

/** Every JSON object in the text that has a `decision` key, fenced or bare, in order. */
function decisionObjects(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const fence = /```[^\n]*\n([\s\S]*?)```/g;
  let match: RegExpExecArray | null;
  while ((match = fence.exec(text)) !== null) {
    const object = parseJsonObject(match[1]!.trim());
    if (object && 'decision' in object) found.push(object);
  }
  const bare = /\{\s*"decision"\s*:/g;
  const starts: number[] = [];
  while ((match = bare.exec(text)) !== null) starts.push(match.index);
  // Each try scans to its closing brace: bound the work to the last few.
  for (const start of starts.slice(-8)) {
    const end = balancedObjectEnd(text, start);
    const object = end > start ? parseJsonObject(text.slice(start, end)) : undefined;
    if (object) found.push(object);
  }
  return found;
}

/**
 * Reads a juror's decision from its reply: the last JSON object with a `decision` (fenced or bare; `approve`,
 * `reject` or `unclear`, a few synonyms such as `approved` or `yes` accepted), its `confidence` (0 to 1, or a
 * percentage) and `reasons` (a list or one string); else the last line reading `DECISION: <word>`. Never throws:
 * with no decision, `decision` is null and `format` is `none`.
 */
export function parseJuryDecision(text: string): ParsedJuryDecision {
  const objects = decisionObjects(text);
  for (const object of objects.reverse()) {
    const decision = normalizeDecision(object.decision);
    if (decision === undefined) continue;
    return {
      decision,
      confidence: confidenceOf(object.confidence),
      reasons: reasonsOf(object.reasons ?? object.reason),
      format: 'json',
    };
  }
  const lines = [...text.matchAll(/^[\s#>*_-]*(?:final\s+)?(?:decision|verdict)[*_\s]*:[*_\s]*([A-Za-z]+)/gim)];
  for (const line of lines.reverse()) {
    const decision = normalizeDecision(line[1]);
    if (decision !== undefined) return { decision, confidence: null, reasons: [], format: 'line' };
  }
  return { decision: null, confidence: null, reasons: [], format: 'none' };
}
