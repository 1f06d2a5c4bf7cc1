import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Issue 30 item 14: the README's provider snippets sent `messages`, defined nowhere. Every name a snippet uses
// without importing or declaring it must be declared by a snippet above it.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

function declared(code: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(/\bconst\s+(\w+)/g)) names.push(m[1]!);
  for (const m of code.matchAll(/\bconst\s+\{([^}]*)\}/g)) names.push(...m[1]!.split(',').map((n) => n.trim()));
  for (const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g))
    names.push(
      ...m[1]!.split(',').map((n) =>
        n
          .trim()
          .split(/\s+as\s+/)
          .at(-1)!,
      ),
    );
  return names;
}

describe('the README snippets', () => {
  it('declare messages before any snippet sends it', () => {
    const seen = new Set<string>();
    const missing: number[] = [];
    blocks.forEach((code, i) => {
      for (const name of declared(code)) seen.add(name);
      // `messages` as a value (not an object key `messages: [...]`).
      if (/\bmessages\b(?!\s*:)/.test(code) && !seen.has('messages')) missing.push(i);
    });
    expect(blocks.filter((b) => /\{ messages[ ,}]/.test(b)).length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
