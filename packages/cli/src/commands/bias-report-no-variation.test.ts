import type { BiasObservation } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { visibleText, writeObservationStore } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';

const NOW = '2026-11-05T00:00:00Z';

/**
 * 13 sessions in which three members score each other's answers 7.3, every one, at lengths that vary. 7.3 is not exact
 * in binary, so what the score model leaves of each score differs from the next by rounding (~1e-15 points).
 */
function sameScoreObservations(): BiasObservation[] {
  const members = ['m/a', 'm/b', 'm/c'];
  const out: BiasObservation[] = [];
  for (let i = 0; i < 13; i++)
    for (const reviewer of members)
      members
        .filter((m) => m !== reviewer)
        .forEach((candidate, k) =>
          out.push({
            sessionId: `d-${i}`,
            timestamp: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 3_600_000).toISOString(),
            reviewer,
            candidate,
            position: (k + i) % 2,
            responseLengthChars: 800 + 100 * members.indexOf(candidate) + (i % 3) * 50,
            score: 7.3,
            rankPosition: k,
            configVersion: '1.0.0',
            queryCategory: 'coding',
          }),
        );
  return out;
}

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
