import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { visibleText, writeObservationStore } from '../testing/write-bias-records.js';
import { correlatedJudgesObservations, harshReviewerObservations } from '../testing/calibrated-observations.js';
import type { BiasReportDocument } from './bias-report-command.js';

// Issue 31: the calibrated leaderboard, how many judges the council really has, the pooled reviewer offsets and the
// style-controlled ratings in the bias report's JSON, text and HTML, from hand-built stores whose figures are worked
// by hand (see testing/calibrated-observations.ts). Each test runs the report three times: slow by design.
const NOW = '2026-11-05T00:00:00Z';

async function report(args: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(['bias-report', '--now', NOW, ...args], { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out(), err: c.err() };
}

describe('council bias-report: the calibrated view, n_eff, pooled offsets and style control (issue 31)', () => {
  // m/a, m/b, m/c write answers worth 8, 7, 6 and score each other fairly; r/harsh scores only m/a's, 4.5 low. Raw
  // means: m/a (8 + 8 + 3.5)/3 = 6.5, m/b 7, m/c 6, so m/b leads; calibrated (r/harsh's −4.5 from the median
  // reviewer taken out): 8, 7, 6. No noise: every interval is a point. Pooling: the four offsets 0, 0, 0, −4.5 are
  // measured without error, so the prior's τ² is their mean square, 20.25/4 = 5.0625 (τ = 2.25), and each keeps all
  // of its value. The reviewers never disagree on an answer: n_eff cannot be measured. Rankings follow quality, so in
  // the plain Bradley–Terry fit m/a beats everyone it meets and m/c no one: m/a, m/b, m/c.
  it('a harsh reviewer of the best member: the raw order is wrong, the calibrated one right, in JSON, text and HTML', async () => {
    const { dir, path } = await writeObservationStore(harshReviewerObservations());
    const json = await report(['--input', path, '--format', 'json', '--calibrated'], dir);
    expect(json.code).toBe(0);
    expect(json.out).not.toMatch(/NaN|Infinity/);
    const document = JSON.parse(json.out) as BiasReportDocument;
    const view = document.calibrated!;
    expect(view.leaderboard.map((e) => [e.model, e.calibratedRank, e.rawRank])).toEqual([
      ['m/a', 1, 2],
      ['m/b', 2, 1],
      ['m/c', 3, 3],
    ]);
    const byModel = new Map(view.leaderboard.map((e) => [e.model, e]));
    for (const [model, raw, calibrated] of [
      ['m/a', 6.5, 8],
      ['m/b', 7, 7],
      ['m/c', 6, 6],
    ] as const) {
      expect(byModel.get(model)!.raw.estimate).toBeCloseTo(raw, 9);
      expect(byModel.get(model)!.calibrated.estimate).toBeCloseTo(calibrated, 9);
    }
    expect(view.reviewerOffsets.find((o) => o.reviewer === 'r/harsh')!.estimate).toBeCloseTo(-4.5, 9);
    expect(view.partialPooling.reviewerOffsets.prior.tau).toBeCloseTo(2.25, 6);
    expect(view.effectiveJudges.effective.estimate).toBeNull();
    const style = document.styleControlled!;
    expect(style.computable).toBe(true);
    if (style.computable) {
      expect(style.plain.map((e) => e.candidate)).toEqual(['m/a', 'm/b', 'm/c']);
      expect(style.coefficients.map((c) => c.feature)).toEqual(['length_per_1000_chars']);
      expect(style.note).toContain("the bias records keep each answer's length, not its text");
    }

    const text = await report(['--input', path, '--calibrated'], dir);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Calibrated leaderboard (analytics only: live votes are unchanged)');
    expect(text.out).toContain(
      "Taking each reviewer's offset and the display positions' effects out of the scores changes the order: m/a rises from 2nd to 1st; m/b falls from 1st to 2nd.",
    );
    expect(text.out).toMatch(/│ +1 │ m\/a +│ +8\.00 \[8\.00, 8\.00\] │ +6\.50 \[6\.50, 6\.50\] │ +2 │ +24 │/);
    expect(text.out).toMatch(/│ +2 │ m\/b +│ +7\.00 \[7\.00, 7\.00\] │ +7\.00 \[7\.00, 7\.00\] │ +1 │ +24 │/);
    expect(text.out).toContain(
      'How many judges you really have\n  Not known: the reviewers never disagreed about an answer, so there is no error to compare.',
    );
    expect(text.out).toContain(
      "Prior: a reviewer's true offset lies around the typical reviewer's (0) with a spread of about τ = 2.25 points (its most likely value), learnt from the 4 reviewers' offsets (empirical Bayes, averaged over every spread the data allow).",
    );
    expect(text.out).toMatch(/│ r\/harsh +│ +-4\.50 │ +-4\.50 \[-4\.50, -4\.50\] │ 100% │/);
    expect(text.out).toMatch(/Style-controlled ratings[^\n]*\n {2}Holding length fixed/);
    expect(text.out).toContain('Analytics only: live votes are unchanged.');
    // The sections come before the flags, which stay the report's last word.
    expect(text.out.indexOf('Calibrated leaderboard')).toBeLessThan(text.out.indexOf('Flags (Holm'));

    const html = visibleText((await report(['--input', path, '--format', 'html', '--calibrated'], dir)).out);
    expect(html).toContain('Calibrated leaderboard Analytics only: live votes are unchanged.');
    expect(html).toContain('changes the order: m/a rises from 2nd to 1st; m/b falls from 1st to 2nd.');
    expect(html).toContain('m/a 1 8.00 [8.00, 8.00] 6.50 [6.50, 6.50] 2 24');
    expect(html).toContain('r/harsh −4.50 −4.50 [−4.50, −4.50] 100%');
    expect(html).toContain('How many judges you really have');
    expect(html).toContain('Style-controlled ratings');
  }, 60_000);

  // j/one and j/two always make the same error, j/three its own: ρ = 1 for (j/one, j/two), 0 for the other pairs,
  // ρ̄ = 1/3, n_eff = 3/(1 + 2/3) = 1.8, and the reviewers' part of an interval √(3/1.8) = 1.29 times as wide.
  it("says how many judges the council really has: '3 judges, 1.8 effective [1.8–1.8]'", async () => {
    const { dir, path } = await writeObservationStore(correlatedJudgesObservations());
    const document = JSON.parse(
      (await report(['--input', path, '--format', 'json', '--calibrated'], dir)).out,
    ) as BiasReportDocument;
    const judges = document.calibrated!.effectiveJudges;
    expect(judges.reviewers).toBe(3);
    expect(judges.effective.estimate).toBeCloseTo(1.8, 9);
    expect(judges.meanCorrelation.estimate).toBeCloseTo(1 / 3, 9);
    expect(judges.pairs.map((p) => [p.reviewer, p.other, Number(p.correlation.estimate.toFixed(9))])).toEqual([
      ['j/one', 'j/three', 0],
      ['j/one', 'j/two', 1],
      ['j/two', 'j/three', 0],
    ]);

    const sentence =
      "3 judges, 1.8 effective [1.8–1.8]: the leaderboard's intervals are as wide as 1.8 independent judges would give (the reviewers' part of each is 1.29 times as wide as 3 independent judges would make it).";
    const text = await report(['--input', path, '--calibrated'], dir);
    expect(text.out).toContain(`How many judges you really have\n  ${sentence}\n`);
    expect(text.out).toContain(
      'j/one and j/two err alike (error correlation +1.00 [+1.00, +1.00], over 150 answers both scored): together worth 1.0 judges [1.0–1.0].',
    );
    expect(visibleText((await report(['--input', path, '--format', 'html', '--calibrated'], dir)).out)).toContain(
      sentence,
    );
  }, 60_000);

  it('too few sessions: the figures say why they are missing, and the JSON never holds NaN', async () => {
    const { dir, path } = await writeObservationStore(harshReviewerObservations(1));
    const json = await report(['--input', path, '--format', 'json', '--calibrated'], dir);
    expect(json.code).toBe(0);
    expect(json.out).not.toMatch(/NaN|Infinity/);
    const document = JSON.parse(json.out) as BiasReportDocument;
    expect(document.calibrated!.effectiveJudges.statement).toMatch(/^Not computable/);
    expect(document.calibrated!.leaderboard.every((e) => e.calibrated.lower === null)).toBe(true);
    const style = document.styleControlled!;
    if (style.computable) expect(style.styleControlled.every((e) => e.interval === null)).toBe(true);
  }, 30_000);

  // The bootstraps take seconds over many sessions (the style fit most): without --calibrated the text and HTML
  // reports say where the figures are, and the JSON has neither block.
  it('without --calibrated: a pointer in the text, no sections, no calibrated figures in the JSON', async () => {
    const { dir, path } = await writeObservationStore(harshReviewerObservations());
    const text = await report(['--input', path], dir);
    expect(text.out).not.toContain('Calibrated leaderboard');
    expect(text.out).toContain(
      'Run with --calibrated for the calibrated leaderboard, how many judges you really have, the pooled reviewer offsets and style-controlled ratings.',
    );
    expect((await report(['--input', path, '--format', 'html'], dir)).out).not.toContain('Calibrated leaderboard');
    const document = JSON.parse((await report(['--input', path, '--json'], dir)).out) as BiasReportDocument;
    expect(document.calibrated).toBeUndefined();
    expect(document.styleControlled).toBeUndefined();
    // CSV has rows of the report's metrics only: it says where the calibrated figures are instead.
    const csv = await report(['--input', path, '--format', 'csv', '--calibrated'], dir);
    expect(csv.code).toBe(0);
    expect(csv.err).toContain('--calibrated has no CSV rows: its figures are in the text, JSON and HTML reports.');
  }, 60_000);
});
