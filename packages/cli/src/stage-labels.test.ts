import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCouncilProgressNotifier } from './mcp/council-progress-notifier.js';
import { createProgressLines } from './progress-lines.js';
import { STAGE_DONE_VERBS, STAGE_NAMES } from './stage-labels.js';

/** Every source file of the package (tests excluded), relative to src. */
function sources(dir = import.meta.dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(import.meta.dirname, path)] : [];
  });
}

describe('stage names and verbs', () => {
  it('are written in one file only', () => {
    const holders = sources().filter((file) =>
      /'synthesised'|'answered'/.test(readFileSync(join(import.meta.dirname, file), 'utf8')),
    );
    expect(holders).toEqual(['stage-labels.ts']);
  });

  it('the plain progress lines and the MCP progress notifications use them alike', () => {
    expect([STAGE_NAMES, STAGE_DONE_VERBS]).toEqual([
      { 1: 'answers', 2: 'reviews', 3: 'synthesis' },
      { 1: 'answered', 2: 'reviewed', 3: 'synthesised' },
    ]);
    const lines: string[] = [];
    const messages: string[] = [];
    const plain = createProgressLines({ write: (t) => void lines.push(t), now: () => 0 });
    const mcp = createCouncilProgressNotifier({ send: (u) => void messages.push(u.message), now: () => 0 });
    for (const sink of [plain, mcp]) {
      sink.onEvent({ type: 'stage-started', stage: 2, calls: 1 });
      sink.onEvent({ type: 'model-started', stage: 2, member: 'a', model: 'a' });
      sink.onEvent({
        type: 'model-finished',
        stage: 2,
        member: 'a',
        model: 'a',
        latencyMs: 1_000,
        usage: { inputTokens: 1, outputTokens: 1 },
      });
    }
    expect(lines[0]).toContain('(reviews)');
    expect(lines[1]).toBe('  a reviewed (1.0 s)\n');
    expect(messages[0]).toContain('(reviews)');
    expect(messages.at(-1)).toContain('a reviewed in 1.0 s');
  });
});
