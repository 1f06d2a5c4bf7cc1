import type { AcceptRule, KeyPattern } from './eval-item.js';

const normalise = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ');

function matches(answer: string, pattern: KeyPattern): boolean {
  if (pattern.kind === 'regex') return new RegExp(pattern.source, pattern.flags).test(answer);
  return normalise(answer).includes(normalise(pattern.text).trim());
}

/**
 * The deterministic check: an answer is correct when it contains every `allOf` pattern and, if `anyOf` is not empty,
 * at least one of those. A phrase matches case-insensitively, with any run of white space equal to one space; a
 * regular expression is tested as written.
 */
export function checkKeyContent(answer: string, rule: AcceptRule): boolean {
  if (!rule.allOf.every((p) => matches(answer, p))) return false;
  return rule.anyOf.length === 0 || rule.anyOf.some((p) => matches(answer, p));
}
