import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { plantedObservations } from '../testing/write-bias-records.js';

// Issue 30 item 14: "the anchoring table has no heading". In the text report it stands under a heading line that says
// it is anchoring and what its r measures, as the length, position and reviewer tables stand under theirs.
describe('council bias-report: the anchoring table has its heading (issue 30 item 14)', () => {
  it('the anchoring table stands under an "Anchoring (…)" heading, as the length, position and reviewer tables do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-headings-'));
    const path = join(dir, 'bias_metrics.jsonl');
    await createBiasStore({ path }).append(
      recordsFromObservations(plantedObservations({ sessions: 21 }), { consent: 1, hashSecret: null, query: null }),
    );
    const c = captureIo();
    const code = await runCli(['bias-report', '--input', path, '--now', '2026-11-05T00:00:00Z'], {
      version: '1.0.0',
      io: c.io,
      env: {},
      cwd: dir,
    });
    expect(code).toBe(0);
    const lines = c.out().split('\n');
    // The line above a table's top border (┌) is its heading. The length, position and reviewer tables had theirs.
    const headingOf = (row: RegExp) => {
      const at = lines.findIndex((line) => row.test(line));
      expect(at, String(row)).toBeGreaterThan(0);
      return lines[lines.slice(0, at).findLastIndex((line) => line.startsWith('┌')) - 1];
    };
    expect(headingOf(/^│ slope within sessions +│/)).toMatch(/^Length and score \(/);
    expect(headingOf(/^│ A \(1st\) +│/)).toMatch(/^Position \(/);
    expect(headingOf(/^│ r\/one +│/)).toMatch(/^Reviewers \(/);
    expect(headingOf(/^│ anchoring +│/)).toMatch(
      /^Anchoring \(correlation r of display position with a score's distance from the session's mean; /,
    );
  }, 60_000);
});
