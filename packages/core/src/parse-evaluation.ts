import { balancedObjectEnd, parseJsonObject } from './json-object-in-text.js';
import { labelCode, labelsByCode, matchLabel } from './match-label.js';

/** What one reviewer wrote about one response. Empty strings when it wrote nothing under that heading. */
export interface Critique {
  strengths: string;
  weaknesses: string;
}

/** Where a parsed ranking came from: the fenced JSON block, the `FINAL RANKING` list, or nowhere. */
export type EvaluationFormat = 'json' | 'final-ranking' | 'none';

/** A reviewer's evaluation, read from its free text. Labels are canonical (`Response C`). */
export interface ParsedEvaluation {
  /** Labels, best first; may be partial; empty when no ranking was found. */
  ranking: string[];
  /** Scores on the 1–10 scale, by label. */
  scores: Record<string, number>;
  critiques: Record<string, Critique>;
  /** True only when the reviewer refused and no ranking was found. */
  abstained: boolean;
  format: EvaluationFormat;
  /** What was dropped or could not be read, for the session's diagnostics. */
  warnings: string[];
}

const scoreMin = 1;
const scoreMax = 10;
const refusalPattern =
  /\b(?:i\s+(?:cannot|can't|can not|won't|will not|am unable to|'m unable to|am not able to|must decline|decline to|refuse to|abstain)|i'm\s+(?:unable|not able)\s+to|abstain(?:ing)?\s+from)\b/i;

export interface RankingRead {
  ranking: string[];
  warnings: string[];
}

/** Maps raw entries to canonical labels: unknown ones dropped with a warning, duplicates keep the first. (Also read by the structured parser.) */
export function readRanking(
  entries: readonly unknown[],
  byCode: ReadonlyMap<string, string>,
  where: string,
): RankingRead {
  const ranking: string[] = [];
  const warnings: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      warnings.push(`${where}: ranking entry ${JSON.stringify(entry) ?? String(entry)} is not a label; ignored.`);
      continue;
    }
    const label = matchLabel(entry, byCode);
    if (label === undefined) {
      warnings.push(`${where}: ${JSON.stringify(entry.slice(0, 60))} is not one of the labels shown; dropped.`);
      continue;
    }
    if (ranking.includes(label)) {
      warnings.push(`${where}: ${label} is ranked twice; kept its first place.`);
      continue;
    }
    ranking.push(label);
  }
  return { ranking, warnings };
}

/** A score from JSON: finite numbers and numeric strings (`"7"`, `"7/10"`) on the 1–10 scale; never booleans. */
export function readScore(value: unknown, label: string, warnings: string[]): number | undefined {
  let score: number | undefined;
  if (typeof value === 'number') score = value;
  else if (typeof value === 'string' && /^\s*[+-]?\d+(?:\.\d+)?\s*(?:\/\s*10\s*)?$/.test(value))
    score = Number.parseFloat(value);
  if (score === undefined || !Number.isFinite(score)) {
    warnings.push(`score for ${label} is ${typeof value === 'boolean' ? 'a boolean' : 'not a number'}; ignored.`);
    return undefined;
  }
  if (score < scoreMin || score > scoreMax) {
    warnings.push(`score ${score} for ${label} is outside the ${scoreMin}–${scoreMax} scale; ignored.`);
    return undefined;
  }
  return score;
}

/** The bodies of fenced code blocks and of bare `{"ranking": …}` / `{"scores": …}` objects, in text order. */
function jsonCandidates(text: string): Array<{ at: number; body: string }> {
  const found: Array<{ at: number; body: string }> = [];
  const fenced: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('```', from);
    if (open < 0) break;
    const lineEnd = text.indexOf('\n', open + 3);
    if (lineEnd < 0) break;
    const close = text.indexOf('```', lineEnd + 1);
    if (close < 0) break;
    found.push({ at: open, body: text.slice(lineEnd + 1, close) });
    fenced.push([open, close + 3]);
    from = close + 3;
  }
  const bare = /\{\s*"(?:ranking|scores)"\s*:/gi;
  const starts: number[] = [];
  let match: RegExpExecArray | null;
  while ((match = bare.exec(text)) !== null) {
    const at = match.index;
    if (!fenced.some(([start, end]) => at >= start && at < end)) starts.push(at);
  }
  // Only the last few bare objects can win, and each costs a scan to its closing brace: bound the work.
  for (const at of starts.slice(-maxBareObjects)) {
    const end = balancedObjectEnd(text, at);
    if (end > at) found.push({ at, body: text.slice(at, end) });
  }
  return found.sort((a, b) => a.at - b.at);
}

function getKey(object: Record<string, unknown>, key: string): unknown {
  const found = Object.keys(object).find((k) => k.toLowerCase() === key);
  return found === undefined ? undefined : object[found];
}

const maxBareObjects = 8;
const maxMarkersTried = 8;
const listItem = /^\s*(?:\d{1,3}\s*[.):]|[-*•+])\s*(.*)$/;
/** A label alone, with optional emphasis, quotes or brackets: `Response A`, `**B**`, `(c).`. */
const inlineLabel = /^[\s*_"'`[(]*(?:response[\s_-]+)?[a-z]{1,4}[\s*_"'`\]).:]*$/i;

/** The last `FINAL RANKING` section that names at least one label, read as a numbered or bulleted list. */
function readFinalRanking(
  lines: readonly string[],
  byCode: ReadonlyMap<string, string>,
): { read: RankingRead; line: number } | undefined {
  let tried = 0;
  for (let i = lines.length - 1; i >= 0 && tried < maxMarkersTried; i--) {
    const markerAt = lines[i]!.search(/final\s+ranking/i);
    if (markerAt < 0) continue;
    tried++;
    const entries: string[] = [];
    // Items written on the marker line itself: `FINAL RANKING: Response B, Response A` or `B > A > C`.
    const rest = lines[i]!.slice(markerAt).replace(/^final\s+ranking\W*/i, '');
    const inline = rest
      .split(/[,>;]|\band\b/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    // Each piece must be a label and nothing else: `Response A.` counts, prose that mentions one does not.
    if (inline.length > 0 && inline.every((s) => inlineLabel.test(s) && labelCode(s) !== undefined))
      entries.push(...inline);
    let started = entries.length > 0;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '' || /^\s*```/.test(line)) {
        if (started && /^\s*```/.test(line)) break;
        continue;
      }
      const item = listItem.exec(line);
      if (!item) break;
      started = true;
      entries.push(item[1]!);
    }
    const read = readRanking(entries, byCode, 'FINAL RANKING');
    if (read.ranking.length > 0) return { read, line: i };
  }
  return undefined;
}

const headerPattern =
  /^[ \t]*(?:#{1,6}[ \t]*)?(?:\d{1,3}[.)][ \t]*)?(?:[*_]{1,2}[ \t]*)?(?:evaluation[ \t]+of[ \t]+)?response[ \t_-]+([a-z]{1,4})\b[*_]*/i;
const keywordPattern = /\b(strengths?|weakness(?:es)?|score)\b[*_]*\s*(?::|=|[—–]|-(?=\s))/gi;
const scoreValue = /^[\s*_]*([+-]?\d+(?:\.\d+)?)(?:\s*\/\s*10)?/;

/** A critique fragment without list markers, emphasis or dangling punctuation; empty when nothing is left. */
function cleanFragment(text: string): string {
  let cleaned = text.replace(/^[\s>*_\-•+#]*(?:\d{1,3}[.)])?[\s*_]*/, '');
  // Trailing emphasis and spaces, trimmed by hand: a `[\s*_]+$` regex is quadratic on long runs of spaces.
  let end = cleaned.length;
  while (end > 0 && /[\s*_]/.test(cleaned[end - 1]!)) end--;
  cleaned = cleaned.slice(0, end);
  return /^[\p{P}\p{S}\d\s]*$/u.test(cleaned) ? '' : cleaned;
}

/** Strengths, weaknesses and prose scores from per-response sections (`### Response A`, `**Response A**`, `Response A — strengths: …`). */
function readSections(
  lines: readonly string[],
  byCode: ReadonlyMap<string, string>,
  stopLine: number,
): { critiques: Record<string, Critique>; scores: Record<string, number>; warnings: string[] } {
  const critiques: Record<string, Critique> = {};
  const scores: Record<string, number> = {};
  const warnings: string[] = [];
  let current: string | undefined;
  let field: keyof Critique | 'score' | undefined;
  let inFence = false;
  const absorb = (piece: string, into: typeof field): void => {
    if (current === undefined || into === undefined) return;
    if (into === 'score') {
      const value = scoreValue.exec(piece);
      if (value && !(current in scores)) {
        const score = readScore(value[1], current, warnings);
        if (score !== undefined) scores[current] = score;
      }
      return;
    }
    const text = cleanFragment(piece);
    if (text === '') return;
    const critique = critiques[current]!;
    critique[into] = critique[into] === '' ? text : `${critique[into]}\n${text}`;
  };
  for (let i = 0; i < stopLine; i++) {
    let line = lines[i]!;
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const header = headerPattern.exec(line);
    if (header) {
      current = byCode.get(header[1]!.toUpperCase());
      field = undefined;
      if (current !== undefined) critiques[current] ??= { strengths: '', weaknesses: '' };
      line = line.slice(header[0].length);
    }
    if (current === undefined) continue;
    const keywords = [...line.matchAll(keywordPattern)];
    if (keywords.length === 0) {
      absorb(line, field === 'score' ? undefined : field);
      continue;
    }
    absorb(line.slice(0, keywords[0]!.index), field === 'score' ? undefined : field);
    keywords.forEach((match, k) => {
      const word = match[1]!.toLowerCase();
      field = word.startsWith('strength') ? 'strengths' : word.startsWith('weakness') ? 'weaknesses' : 'score';
      absorb(line.slice(match.index + match[0].length, keywords[k + 1]?.index ?? line.length), field);
    });
  }
  for (const [label, critique] of Object.entries(critiques)) {
    if (critique.strengths === '' && critique.weaknesses === '') delete critiques[label];
  }
  return { critiques, scores, warnings };
}

function emptyEvaluation(warnings: string[]): ParsedEvaluation {
  return { ranking: [], scores: {}, critiques: {}, abstained: false, format: 'none', warnings };
}

/**
 * Reads a reviewer's evaluation. Never throws, whatever `text` is. Rules: the last JSON block with a
 * ranking wins; else the last `FINAL RANKING` section (marker case-insensitive, numbered or bulleted);
 * labels match case-insensitively and may be multi-letter; duplicates keep their first place; unknown
 * labels are dropped with a warning; numeric strings count as scores, booleans do not; a refusal is an
 * abstention only when no ranking was found; `Response X` mentions in prose are never a ranking.
 */
export function parseEvaluation(text: string, labels: readonly string[]): ParsedEvaluation {
  try {
    return parseEvaluationUnsafe(typeof text === 'string' ? text : '', labels);
  } catch (error) {
    return emptyEvaluation([
      `the evaluation could not be read: ${error instanceof Error ? error.message : String(error)}`,
    ]);
  }
}

function parseEvaluationUnsafe(text: string, labels: readonly string[]): ParsedEvaluation {
  const byCode = labelsByCode(labels);
  const warnings: string[] = [];
  const lines = text.split(/\r\n|\r|\n/);

  let ranking: string[] = [];
  let jsonScores: Record<string, unknown> | undefined;
  let format: EvaluationFormat = 'none';
  let rankingWarnings: string[] = [];
  for (const candidate of jsonCandidates(text)) {
    const object = parseJsonObject(candidate.body);
    if (object === undefined) continue;
    const rawRanking = getKey(object, 'ranking');
    const rawScores = getKey(object, 'scores');
    if (Array.isArray(rawRanking)) {
      const read = readRanking(rawRanking, byCode, 'JSON ranking');
      if (read.ranking.length > 0) {
        ranking = read.ranking;
        rankingWarnings = read.warnings;
        format = 'json';
        jsonScores =
          typeof rawScores === 'object' && rawScores !== null && !Array.isArray(rawScores)
            ? (rawScores as Record<string, unknown>)
            : undefined;
        continue;
      }
    }
    if (format === 'none' && typeof rawScores === 'object' && rawScores !== null && !Array.isArray(rawScores)) {
      jsonScores = rawScores as Record<string, unknown>;
    }
  }

  const final = readFinalRanking(lines, byCode);
  if (format === 'none' && final) {
    ranking = final.read.ranking;
    rankingWarnings = final.read.warnings;
    format = 'final-ranking';
  }
  const stopLine = final?.line ?? lines.length;
  warnings.push(...rankingWarnings);

  const sections = readSections(lines, byCode, stopLine);
  const scores: Record<string, number> = {};
  if (jsonScores !== undefined) {
    for (const [key, value] of Object.entries(jsonScores)) {
      const label = matchLabel(key, byCode);
      if (label === undefined) {
        warnings.push(`JSON scores: ${JSON.stringify(key.slice(0, 60))} is not one of the labels shown; dropped.`);
        continue;
      }
      if (label in scores) continue;
      const score = readScore(value, label, warnings);
      if (score !== undefined) scores[label] = score;
    }
  } else {
    Object.assign(scores, sections.scores);
    warnings.push(...sections.warnings);
  }

  const abstained = ranking.length === 0 && refusalPattern.test(text);
  if (ranking.length === 0) {
    warnings.push(
      abstained
        ? 'the reviewer declined to rank; counted as an abstention.'
        : 'no ranking found (neither a JSON block with "ranking" nor a FINAL RANKING list).',
    );
  }
  return { ranking, scores, critiques: sections.critiques, abstained, format, warnings };
}
