import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { flatCouncilObservations, visibleText, writeObservationStore } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';

const NOW = '2026-11-05T00:00:00Z';

// Every score 7.3, at lengths that vary. 7.3 is not exact in binary, so what the score model leaves of each score
// differs from the next by rounding (~1e-15 points).
const sameScoreObservations = () =>
  flatCouncilObservations({ score: 7.3, length: (i, c) => 800 + 100 * c + (i % 3) * 50, rank: (_, k) => k });

async function report(args: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(['bias-report', '--now', NOW, ...args], { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out() };
}

describe('council bias-report: every score the same', () => {
  it('prints 0.000 without a sign, and no test where the scores have no spread (n/a in text, null with a note in JSON)', async () => {
    const { dir, path } = await writeObservationStore(sameScoreObservations());
    const text = await report(['--input', path, '--calibrated', '--verbose'], dir);
    expect(text.code).toBe(0);
    expect(text.out).not.toMatch(/[-+−]0\.0/);
    expect(text.out).toMatch(
      /│ slope within sessions +│ +0\.000 │ +\[0\.000, 0\.000\] │ +39 │ +13 │ n\/a: no variation │/,
    );
    expect(text.out).toMatch(/│ m\/a +│ +0\.000 │ +\[0\.000, 0\.000\] │ +26 │ +13 │ n\/a: no variation │/);
    expect(text.out).not.toContain('< 0.001');
    expect(text.out).toContain('  Every score in the window is 7.30: with no spread there is nothing to calibrate');

    const html = visibleText((await report(['--input', path, '--format', 'html', '--calibrated'], dir)).out);
    expect(html).toContain('Every score in the window is 7.30: with no spread there is nothing to calibrate');

    const json = JSON.parse((await report(['--input', path, '--format', 'json'], dir)).out) as BiasReportDocument;
    const slope = json.report.length.slope;
    expect([slope.estimate, slope.pValue]).toEqual([0, null]);
    expect(slope.note).toMatch(/^No variation: /);
    expect(json.report.length.correlation.estimate).toBeNull();
  });
});
