import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

const README = fileURLToPath(new URL('../../../../README.md', import.meta.url));

/** The root README's sample of `council demo`'s output: the text block under its "What `council demo` prints" heading. */
function readmeSample(): string[] {
  const text = readFileSync(README, 'utf8');
  const heading = text.indexOf('### What `council demo` prints');
  expect(heading).toBeGreaterThan(0);
  const block = /```text\n([\s\S]*?)\n```/.exec(text.slice(heading))?.[1];
  expect(block).toBeDefined();
  return block!.split('\n');
}

/** What differs from run to run: the home's path, the session's id and the dates of the window. */
function normalise(line: string, home: string): string {
  return line
    .replaceAll(home, '<home>')
    .replace(/\/tmp\/council-demo-[A-Za-z0-9]+/g, '<home>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<session>')
    .replace(/\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/g, '<dates>');
}

// The first hour: a newcomer compares `npm start`'s output with the README's. The sample had gone stale (its
// between-sessions row said N 1025 and [-1.921, +1.913] after the report had moved to one point per session), and no
// test noticed. Every line of the sample, but its "…", must be a line of the real output, in the same order.
describe("the README's sample of council demo is what council demo prints", () => {
  it('each line of the abridged sample appears in the output, in order (paths, ids and dates aside)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-demo-readme-'));
    const c = captureIo();
    const code = await runCli(['demo', '--home', home], { version: '1.0.0', io: c.io, env: {}, cwd: tmpdir() });
    expect(code, c.err()).toBe(0);
    const output = c
      .out()
      .split('\n')
      .map((line) => normalise(line, home));
    let at = 0;
    for (const line of readmeSample()) {
      if (line === '…') continue;
      const wanted = normalise(line, home);
      const found = output.indexOf(wanted, at);
      expect(found, `README line not in the demo's output after line ${at + 1}: ${wanted}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  }, 120_000);
});
