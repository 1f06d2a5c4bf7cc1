import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../create-style.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

const SIM = 'simulated:ada,simulated:basil,simulated:cleo';

async function council(args: string[], home: string, terminal?: { columns: number }) {
  const c = captureIo(terminal ? { tty: true, columns: terminal.columns } : {});
  const code = await runCli(args, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home });
  return { code, out: stripAnsi(c.out()), err: c.err() };
}

/** The text of one column of a box-drawn table, its wrapped lines joined by a space, for the rows starting at `first`. */
function cellText(out: string, first: RegExp, column: number): string {
  const lines = out.split('\n');
  const start = lines.findIndex((l) => first.test(l));
  const cells: string[] = [];
  for (const line of lines.slice(start)) {
    const parts = line.split('│');
    // A row's first line names its first column; the lines it wraps onto leave that column empty.
    if (cells.length > 0 && parts[1]?.trim() !== '') break;
    cells.push(parts[column + 1]?.trim() ?? '');
  }
  return cells.filter((c) => c !== '').join(' ');
}

// The first hour on an 80- or 100-column terminal: doctor's advice without a key (a paragraph) and history's questions
// made tables of 350 and 150 characters, so the terminal broke every line of their boxes.
describe('doctor and history on a terminal fit its width (issue 30, the first hour)', () => {
  it('doctor without a provider: every line within 100 columns, the providers advice whole across its lines', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-fit-doctor-'));
    const r = await council(['doctor', '--offline'], home, { columns: 100 });
    expect(r.code).toBe(0);
    for (const line of r.out.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
    const advice = cellText(r.out, /│ providers /, 2);
    expect(advice).toMatch(/^no provider is set up: set a hosted provider's key \(OPENROUTER_API_KEY, /);
    expect(advice).toMatch(/Until then only `council demo` \(simulated\) runs$/);
    expect(r.out).toContain('Nothing failed, but no model provider can run a council yet: see "providers".');

    // Piped (no terminal): one line a row, as scripts read it.
    const piped = await council(['doctor', '--offline'], home);
    expect(piped.out).toMatch(
      /│ providers +│ warn +│ no provider is set up: .* only `council demo` \(simulated\) runs │/,
    );
  });

  it('history list: within 100 columns, a follow-up marked under its question, each question whole across its lines', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-fit-history-'));
    const question = 'How should a small team start writing automated tests for a legacy app?';
    expect((await council(['ask', question, '--models', SIM], home)).code).toBe(0);
    expect((await council(['ask', '--continue', 'And with no build script?'], home)).code).toBe(0);
    const r = await council(['history'], home, { columns: 100 });
    expect(r.code).toBe(0);
    for (const line of r.out.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
    const rows = r.out.split('\n').filter((l) => /^│ [0-9a-f]{8} /.test(l));
    expect(rows).toHaveLength(2);
    expect(cellText(r.out, new RegExp(`^│ ${rows[0]!.slice(2, 10)} `), 2)).toBe(question);
    expect(cellText(r.out, new RegExp(`^│ ${rows[1]!.slice(2, 10)} `), 2)).toBe('↳ And with no build script?');
    expect(r.out).toContain('2 of 2 sessions. Show one with: council history show <session>');

    // Wide enough: the table as before, one line a row.
    const wide = await council(['history'], home, { columns: 200 });
    expect(wide.out).toContain(`│ ${question} │`);
  });
});
