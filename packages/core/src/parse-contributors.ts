import { balancedObjectEnd, parseJsonObject } from './json-object-in-text.js';

/** One contributor to the synthesis (design doc §7.2): a member id, its normalised weight, and why. */
export interface Contributor {
  id: string;
  /** Normalised so the contributors' weights sum to 1. */
  weight: number;
  reason: string;
}

export interface ParsedSynthesis {
  /** The chairman's answer with the metadata block removed. */
  text: string;
  /** Null when the block is missing or unusable (attribution absent; see `warnings`). */
  contributors: Contributor[] | null;
  /** The winner the chairman reported (voting mode), when it named a member. */
  winner: string | null;
  warnings: string[];
}

interface Block {
  start: number;
  end: number;
  object: Record<string, unknown>;
}

function findBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const fence = /```[^\n]*\n([\s\S]*?)```/g;
  let match: RegExpExecArray | null;
  while ((match = fence.exec(text)) !== null) {
    const object = parseJsonObject(match[1]!);
    if (object) blocks.push({ start: match.index, end: match.index + match[0].length, object });
  }
  const bare = /\{\s*"contributors"\s*:/g;
  const starts: number[] = [];
  while ((match = bare.exec(text)) !== null) {
    const at = match.index;
    if (!blocks.some((b) => at >= b.start && at < b.end)) starts.push(at);
  }
  // Only the last block counts, and each try scans to its closing brace: bound the work.
  for (const start of starts.slice(-8)) {
    const end = balancedObjectEnd(text, start);
    const object = end > start ? parseJsonObject(text.slice(start, end)) : undefined;
    if (object) blocks.push({ start, end, object });
  }
  return blocks.sort((a, b) => a.start - b.start);
}

function matchMember(raw: unknown, memberIds: readonly string[]): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  return memberIds.find((id) => id === trimmed) ?? memberIds.find((id) => id.toLowerCase() === trimmed.toLowerCase());
}

/**
 * Reads the chairman's contributors block (design doc §7.2): the last JSON block (fenced or bare)
 * with a `contributors` list. Ids are checked against the members (unknown ones dropped with a
 * warning, duplicates keep the first), weights (numbers or numeric strings, ≥ 0) are normalised to
 * sum to 1, and the block is removed from the text. When the block is missing or unusable, the text is
 * kept whole and `contributors` is null with a warning. Never throws.
 */
export function parseContributors(text: string, memberIds: readonly string[]): ParsedSynthesis {
  const warnings: string[] = [];
  let blocks: Block[] = [];
  try {
    blocks = findBlocks(text);
  } catch {
    blocks = [];
  }
  const block = [...blocks].reverse().find((b) => Array.isArray(b.object.contributors));
  if (!block) {
    warnings.push('the chairman gave no contributors block; attribution is absent.');
    return { text: text.trim(), contributors: null, winner: null, warnings };
  }
  const cleaned = `${text.slice(0, block.start)}${text.slice(block.end)}`.replace(/\n{3,}/g, '\n\n').trim();
  let winner: string | null = null;
  if (block.object.winner !== undefined) {
    winner = matchMember(block.object.winner, memberIds) ?? null;
    if (winner === null)
      warnings.push(`the reported winner ${JSON.stringify(block.object.winner)} is not a member; ignored.`);
  }
  const raw: Array<{ id: string; weight: number; reason: string }> = [];
  for (const entry of block.object.contributors as unknown[]) {
    if (typeof entry !== 'object' || entry === null) {
      warnings.push('a contributors entry is not an object; dropped.');
      continue;
    }
    const item = entry as Record<string, unknown>;
    const id = matchMember(item.id, memberIds);
    if (id === undefined) {
      warnings.push(`contributor ${JSON.stringify(item.id)} is not a member of this council; dropped.`);
      continue;
    }
    if (raw.some((r) => r.id === id)) {
      warnings.push(`contributor "${id}" is listed twice; kept the first.`);
      continue;
    }
    const weight =
      typeof item.weight === 'number'
        ? item.weight
        : typeof item.weight === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(item.weight)
          ? Number(item.weight)
          : NaN;
    if (!Number.isFinite(weight) || weight < 0) {
      warnings.push(`contributor "${id}" has no usable weight (${JSON.stringify(item.weight)}); dropped.`);
      continue;
    }
    raw.push({ id, weight, reason: typeof item.reason === 'string' ? item.reason : '' });
  }
  const total = raw.reduce((sum, r) => sum + r.weight, 0);
  if (raw.length === 0 || total <= 0) {
    warnings.push('the contributors block names no member with a positive weight; attribution is absent.');
    return { text: cleaned, contributors: null, winner, warnings };
  }
  return {
    text: cleaned,
    contributors: raw.map((r) => ({ id: r.id, weight: r.weight / total, reason: r.reason })),
    winner,
    warnings,
  };
}
