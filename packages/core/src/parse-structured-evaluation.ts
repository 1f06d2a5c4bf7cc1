import { parseJsonObject } from './json-object-in-text.js';
import { labelsByCode, matchLabel } from './match-label.js';
import type { Critique, ParsedEvaluation } from './parse-evaluation.js';
import { readRanking, readScore } from './parse-evaluation.js';

/** The reply's one JSON object: the whole text, or the body of a single fenced block around it; undefined otherwise. */
function replyObject(text: string): Record<string, unknown> | undefined {
  let body = text.trim();
  const fenced = /^```[a-z]*\s*\n([\s\S]*)\n\s*```$/i.exec(body);
  if (fenced) body = fenced[1]!.trim();
  return body.startsWith('{') ? parseJsonObject(body) : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * Reads a reply that follows the review schema (`reviewResponseFormat`) or the ranking schema
 * (`rankingResponseFormat`): `{ evaluations: [{ response, strengths, weaknesses, score }], ranking: [labels] }`.
 * Returns undefined when the reply is not such a JSON object with at least one ranked label, so the caller can
 * read it as text instead. Unknown labels are dropped and a repeated one keeps its first place, each with a warning.
 */
export function parseStructuredEvaluation(reply: string, labels: readonly string[]): ParsedEvaluation | undefined {
  const object = replyObject(reply);
  if (object === undefined || !Array.isArray(object['ranking'])) return undefined;
  const byCode = labelsByCode(labels);
  const read = readRanking(object['ranking'] as unknown[], byCode, 'structured ranking');
  if (read.ranking.length === 0) return undefined;
  const warnings = [...read.warnings];
  const scores: Record<string, number> = {};
  const critiques: Record<string, Critique> = {};
  const evaluations = Array.isArray(object['evaluations']) ? (object['evaluations'] as unknown[]) : [];
  for (const entry of evaluations) {
    if (typeof entry !== 'object' || entry === null) continue;
    const fields = entry as Record<string, unknown>;
    const label = typeof fields['response'] === 'string' ? matchLabel(fields['response'], byCode) : undefined;
    if (label === undefined) {
      warnings.push(
        `structured evaluation for ${JSON.stringify(fields['response'])?.slice(0, 60) ?? 'no response'} is not one of the labels shown; dropped.`,
      );
      continue;
    }
    if (label in critiques || label in scores) {
      warnings.push(`structured evaluation: ${label} is evaluated twice; kept the first.`);
      continue;
    }
    const critique = { strengths: text(fields['strengths']), weaknesses: text(fields['weaknesses']) };
    if (critique.strengths !== '' || critique.weaknesses !== '') critiques[label] = critique;
    if (fields['score'] !== undefined) {
      const score = readScore(fields['score'], label, warnings);
      if (score !== undefined) scores[label] = score;
    }
  }
  const missing = labels.filter((l) => !read.ranking.includes(l));
  if (missing.length > 0) warnings.push(`structured ranking leaves out ${missing.join(', ')}.`);
  return { ranking: read.ranking, scores, critiques, abstained: false, format: 'json', warnings };
}
