import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { plantedObservations, visibleText, writeObservationStore } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';

// Issue 30 item 8: each finding said as a sentence in text and HTML, positions 1-based, no machine name, no ADR; the
// machine names stay in JSON. Each test runs the report several times: slow by design on a loaded machine.
const NOW = '2026-11-05T00:00:00Z';

async function report(args: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(['bias-report', '--now', NOW, ...args], { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out(), err: c.err() };
}

/** Machine names a reader should not meet: `name[subject]`, the raw tier and option names, ADR numbers. */
const MACHINE = /\b[a-z]+_[a-z_]+\[[^\]]*\]|insufficient_data|minSessions|ADR-\d+/;

describe('council bias-report says each finding as a sentence (issue 30 item 8)', () => {
  // The planted store over 21 sessions (11 even, 10 odd): every reviewer scores the answer shown first 5 + b, the
  // others 5 (b = 1 in even sessions, 2 in odd ones). Within a reviewer's session the first position's centred score
  // is 3b/4: 0.75 eleven times, 1.5 ten times. Mean 23.25/21 = 1.107143; deviations −0.357143 (×11) and +0.392857
  // (×10), sum of squares 2.946429, SD √(2.946429/20) = 0.383825, SE 0.383825/√21 = 0.083758, t(0.975, 20) = 2.085963,
  // half-width 0.174716: [0.932427, 1.281859]. The other positions get −b/4: mean −7.75/21 = −0.369048, SD
  // √(0.327381/20) = 0.127941, SE 0.027919, half-width 0.058238: [−0.427286, −0.310810].
  it('says the position flags 1-based with their sizes and intervals, in text and HTML; JSON keeps the machine names', async () => {
    const { dir, path } = await writeObservationStore(plantedObservations({ sessions: 21 }));
    const text = await report(['--input', path], dir);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Evidence: moderate (20–49 sessions). Every figure shows its 95% interval.');
    expect(text.out).toMatch(
      /⚑ Position bias: answers shown first score 1\.11 points higher than average \[0\.93–1\.28\] \(flag margin ±0\.1, adjusted p < 0\.001\)\n/,
    );
    expect(text.out).toMatch(/B \(2nd\) +│ +-0\.369 │ \[-0\.427, -0\.311\] │ 21 │/);
    expect(text.out).not.toMatch(MACHINE);
    expect(text.out).not.toMatch(/answers shown 0th|[Cc]onfidence:/);

    const html = visibleText((await report(['--input', path, '--format', 'html'], dir)).out);
    expect(html).toContain('⚑ Position bias: answers shown first score 1.11 points higher than average [0.93–1.28]');
    expect(html).toContain('Evidence: moderate');
    expect(html).toContain('answers shown 2nd −0.369 [−0.427, −0.311] 21 21 < 0.001 ±0.10 moderate');
    expect(html).not.toMatch(MACHINE);

    const json = JSON.parse((await report(['--input', path, '--format', 'json'], dir)).out) as BiasReportDocument;
    expect(json.report.flags.find((f) => f.code === 'POSITION_BIAS_DETECTED')!.metric).toBe('position_effect[0]');
    expect(json.report.confidence).toBe('moderate');
    expect(json.report.minSessions).toBe(20);
  }, 30_000);

  // The planted store over 24 sessions, and in the first 12 a fifth reviewer scoring every answer exactly 2 below the
  // others: its offset is −2 with a point interval, from 12 sessions of its own, fewer than the 20 a flag needs.
  it('says a held-back flag as "too little data: 12 sessions, 20 needed", with its finding', async () => {
    const harsh = plantedObservations({ sessions: 12, reviewers: ['r/harsh'] }).map((o) => ({
      ...o,
      score: o.score! - 2,
    }));
    const { dir, path } = await writeObservationStore([...plantedObservations({ sessions: 24 }), ...harsh]);
    const line =
      'not flagged, too little data: 12 sessions, 20 needed for a flag (harsh reviewer): r/harsh scores 2.00 points below the typical reviewer [2.00–2.00]';
    const text = await report(['--input', path], dir);
    expect(text.out).toContain(`  ${line}\n`);
    expect(text.out).not.toMatch(MACHINE);
    const html = visibleText((await report(['--input', path, '--format', 'html'], dir)).out);
    expect(html).toContain('Not flagged, too little data: 12 sessions, 20 needed for a flag (harsh reviewer)');
    expect(html).not.toMatch(MACHINE);
    const json = JSON.parse((await report(['--input', path, '--format', 'json'], dir)).out) as BiasReportDocument;
    const offset = json.report.reviewers.find((r) => r.reviewer === 'r/harsh')!.offset;
    expect(offset).toMatchObject({ metric: 'reviewer_offset[r/harsh]', confidence: 'preliminary' });
    expect(offset.flagWithheld).toEqual({ code: 'HARSH_REVIEWER', minSessions: 20 });
  }, 30_000);

  it('says a window below the flags’ minimum and below the first figures in words, without ADR numbers', async () => {
    const few = await writeObservationStore(plantedObservations({ sessions: 6 }));
    const six = await report(['--input', few.path], few.dir);
    expect(six.out).toContain('Collecting data…\n6 of the 10 sessions needed before any figure is shown.');
    expect(six.out).not.toMatch(MACHINE);
    expect(visibleText((await report(['--input', few.path, '--format', 'html'], few.dir)).out)).not.toMatch(MACHINE);
    const some = await writeObservationStore(plantedObservations({ sessions: 14 }));
    const fourteen = await report(['--input', some.path], some.dir);
    expect(fourteen.out).toContain(
      'Too little data for flags: 14 sessions, 20 needed (LLM_COUNCIL_MIN_BIAS_SESSIONS); the figures are shown, no flag is raised.',
    );
    expect(fourteen.out).not.toMatch(MACHINE);
    const json = JSON.parse(
      (await report(['--input', some.path, '--format', 'json'], some.dir)).out,
    ) as BiasReportDocument;
    expect(json.report.notes.some((n) => n.includes('minSessions = 20'))).toBe(true);
  }, 30_000);
});

describe('council bias-report: the position test’s permutations and --resamples agree (issue 30 item 14)', () => {
  it('refuses 19 permutations and takes 20, all drawn when no permuted order is as extreme: p = 1/21', async () => {
    const { dir, path } = await writeObservationStore(plantedObservations({ sessions: 21 }));
    expect(await report(['--input', path, '--resamples', '19'], dir)).toMatchObject({
      code: 2,
      err: 'council: --resamples must be 0 (the asymptotic Wald F test) or at least 20 permutations, got 19.\n',
    });
    // Every session's reviewers saw one order, relabelled together: the observed labelling puts each session's bonus at
    // the same label, the largest statistic there is; a permutation matches it only by aligning all 21 sessions
    // again (chance 4·(1/4)^21). None of the 20 does: p = (0 + 1)/(20 + 1) = 0.048.
    // --help says what is true of the count: the most to draw, and the early stop that can make it fewer.
    const help = captureIo();
    await runCli(['bias-report', '--help'], { version: '1.0.0', io: help.io, env: {}, cwd: dir });
    expect(help.out().replace(/\s+/g, ' ')).toContain(
      'Most permutations per position test: 0 for the asymptotic Wald F test, else at least 20; the test stops early once 10 are as extreme as the observed order',
    );
    const twenty = await report(['--input', path, '--resamples', '20'], dir);
    expect(twenty.code).toBe(0);
    expect(twenty.out).toContain(
      '  no-position-effect test on scores: 20 within-session permutations, p = 0.048 (21 sessions)\n',
    );
  }, 30_000);

  it('says when the test stopped early: 10 permutations as extreme as the observed order, of up to 1,000', async () => {
    // Every score is 5: every relabelling gives the observed statistic (0), so the 10th permutation is the 10th as
    // extreme and the test stops there (Besag and Clifford's rule): p = 10/10.
    const { dir, path } = await writeObservationStore(
      plantedObservations({ sessions: 12 }).map((o) => ({ ...o, score: 5 })),
    );
    const r = await report(['--input', path], dir);
    expect(r.out).toContain(
      '  no-position-effect test on scores: 10 within-session permutations (stopped early, of up to 1,000: 10 were at least as extreme as the observed order), p = 1.000 (12 sessions)\n',
    );
  }, 30_000);
});
