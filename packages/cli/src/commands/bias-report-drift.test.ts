import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BiasObservation } from '@council/bias-audit';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { plantedObservations } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';

// Each test runs the report three or four times: slow by design on a loaded machine, hence the explicit timeouts.
const NOW = '2026-11-05T00:00:00Z';
const START = Date.parse('2026-10-10T00:00:00Z');
const HALF_DAY = 12 * 3_600_000;

/**
 * 40 sessions, one every 12 hours from 2026-10-10 (the planted store: four reviewers score four answers alike, the
 * first shown getting the same bonus from each), except r/one: 0.1 above the others in even sessions and 0.1 below
 * in odd ones, and 1 point harsher from session 20 (2026-10-20) on. With `config`, every record from session 20 has
 * that config version (1.0.0 before).
 */
async function driftingStore(config?: string): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'council-drift-'));
  const path = join(dir, 'bias_metrics.jsonl');
  const observations = plantedObservations({ sessions: 40 }).map((o): BiasObservation => {
    const s = Number(o.sessionId.slice(2));
    const own = o.reviewer === 'r/one' ? (s % 2 === 0 ? 0.1 : -0.1) + (s >= 20 ? -1 : 0) : 0;
    return {
      ...o,
      timestamp: new Date(START + s * HALF_DAY).toISOString(),
      score: o.score! + own,
      configVersion: config !== undefined && s >= 20 ? config : '1.0.0',
    };
  });
  await createBiasStore({ path }).append(
    recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null }),
  );
  return { dir, path };
}

async function report(args: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(['bias-report', '--now', NOW, ...args], { version: '1.0.0', io: c.io, env: {}, cwd });
  expect(code).toBe(0);
  return c.out();
}

describe('council bias-report and a reviewer whose offset changed', () => {
  // r/one's gap to the others on the same answers is ±0.1 before session 20 and −1 ± 0.1 from it: each period's
  // mean is exact (10 even, 10 odd sessions), so the change is −1. Each period's sample variance is 20·0.01/19, its
  // mean's 0.01/19; the change's SE is √(0.02/19) = 0.032444 on Welch's 38 df, t(0.975, 38) = 2.024394:
  // −1 ± 0.065680 = [−1.066, −0.934].
  it('flags REVIEWER_DRIFT and shows both periods in JSON, text, CSV and HTML', async () => {
    const { dir, path } = await driftingStore();
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    const one = json.report.reviewers.find((r) => r.reviewer === 'r/one')!;
    expect(one.drift).toMatchObject({ cause: 'scan', since: { timestamp: '2026-10-20T00:00:00.000Z' } });
    expect(one.drift!.change.estimate).toBeCloseTo(-1, 10);
    expect(one.drift!.change.ciLower).toBeCloseTo(-1.06568, 4);
    expect(one.drift!.change.ciUpper).toBeCloseTo(-0.93432, 4);
    expect(one.drift!.periods.map((p) => [p.start, p.end, p.sessions])).toEqual([
      ['2026-10-10T00:00:00.000Z', '2026-10-19T12:00:00.000Z', 20],
      ['2026-10-20T00:00:00.000Z', '2026-10-29T12:00:00.000Z', 20],
    ]);
    // Against three reviewers who agree exactly: 0 before, −1 since (the headline offset is the latest period's).
    expect(one.drift!.periods[0]!.offset.estimate).toBeCloseTo(0, 3);
    expect(one.drift!.periods[1]!.offset.estimate).toBeCloseTo(-1, 3);
    expect(one.offset.estimate).toBeCloseTo(-1, 3);
    expect(json.report.flags.map((f) => [f.code, f.subject])).toEqual(
      expect.arrayContaining([
        ['REVIEWER_DRIFT', 'r/one'],
        ['HARSH_REVIEWER', 'r/one'],
      ]),
    );
    for (const r of json.report.reviewers.filter((x) => x.reviewer !== 'r/one')) expect(r.drift).toBeUndefined();

    const text = await report(['--input', path], dir);
    expect(text).toContain(
      "Reviewers whose offset changed within the window (the offset above is the latest period's)",
    );
    const rows = text.split('\n').filter((line) => line.includes('│ 2026-10-'));
    expect(rows[0]).toMatch(/│ r\/one\s+│ 2026-10-10 to 2026-10-19 │\s+20 │\s+│\s+0\.000 │/);
    expect(rows[1]).toMatch(/│\s+│ 2026-10-20 to 2026-10-29 │\s+20 │\s+│\s+-1\.000 │/);
    expect(text).toContain(
      '  r/one: changed by -1.000 [-1.066, -0.934] from 2026-10-20 (session s-000020; one change point, p < 0.001, 40 sessions)',
    );
    expect(text).toContain(
      '⚑ Reviewer drift: r/one now scores 1.00 points lower than before [0.93–1.07], against the typical reviewer (flag margin ±0.25',
    );

    const csv = (await report(['--input', path, '--format', 'csv'], dir)).split('\r\n');
    const change = csv.find((row) => row.startsWith('reviewer_drift[r/one],'))!.split(',');
    // estimate, ci_lower, ci_upper, sessions, margin, interval_method.
    expect(Number(change[1])).toBeCloseTo(-1, 10);
    expect(Number(change[2])).toBeCloseTo(-1.06568, 4);
    expect([change[7], change[12], change[13]]).toEqual(['40', '0.25', 'welch_t_between_periods']);
    expect(csv.filter((row) => row.startsWith('reviewer_offset[r/one] '))).toHaveLength(2);

    const html = await report(['--input', path, '--format', 'html'], dir);
    expect(html).toContain('<h2>Reviewers whose offset changed</h2>');
    expect(html).toMatch(
      /<th scope="rowgroup" rowspan="2">r\/one<\/th><td>2026-10-10 to 2026-10-19<\/td><td class="num">20<\/td><td>–<\/td>/,
    );
    expect(html).toMatch(
      /<td>2026-10-20 to 2026-10-29<\/td><td class="num">20<\/td><td>–<\/td><td class="num">−1\.000<\/td>/,
    );
    expect(html).toContain('r/one: changed by −1.000 [−1.066, −0.934] from 2026-10-20');
    expect(html).toContain('⚑ Reviewer drift: r/one now scores 1.00 points lower than before [0.93–1.07]');
  }, 60_000);

  it('names each period’s config version where the change came with a config-version change', async () => {
    const { dir, path } = await driftingStore('1.1.0');
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    const drift = json.report.reviewers.find((r) => r.reviewer === 'r/one')!.drift!;
    expect(drift.cause).toBe('config_version');
    expect(drift.periods.map((p) => p.configVersion)).toEqual(['1.0.0', '1.1.0']);
    const text = await report(['--input', path], dir);
    expect(text).toMatch(/│ r\/one\s+│ 2026-10-10 to 2026-10-19 │\s+20 │ 1\.0\.0\s+│/);
    expect(text).toMatch(/│\s+│ 2026-10-20 to 2026-10-29 │\s+20 │ 1\.1\.0\s+│/);
    expect(text).toContain('at a config-version change');
    const html = await report(['--input', path, '--format', 'html'], dir);
    expect(html).toContain('<td class="num">20</td><td>1.1.0</td>');
  }, 60_000);

  it('shows every period of a reviewer that changed and changed back, at each config-version change', async () => {
    // 60 sessions every 10 hours from 2026-10-10 (to 2026-11-03, inside the 30-day window): config 1.0.0, then 1.1.0
    // from session 20 (2026-10-18T08:00) and 1.2.0 from session 40 (2026-10-26T16:00); r/one is 2 points harsher
    // under 1.1.0 only (±0.1 alternating throughout).
    const dir = mkdtempSync(join(tmpdir(), 'council-drift-'));
    const path = join(dir, 'bias_metrics.jsonl');
    const observations = plantedObservations({ sessions: 60 }).map((o): BiasObservation => {
      const s = Number(o.sessionId.slice(2));
      const own = o.reviewer === 'r/one' ? (s % 2 === 0 ? 0.1 : -0.1) + (s >= 20 && s < 40 ? -2 : 0) : 0;
      return {
        ...o,
        timestamp: new Date(START + s * 10 * 3_600_000).toISOString(),
        score: o.score! + own,
        configVersion: s < 20 ? '1.0.0' : s < 40 ? '1.1.0' : '1.2.0',
      };
    });
    await createBiasStore({ path }).append(
      recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null }),
    );
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    const drift = json.report.reviewers.find((r) => r.reviewer === 'r/one')!.drift!;
    expect(
      drift.periods.map((p) => [p.configVersion, p.sessions, Math.round(p.offset.estimate! * 100) / 100 + 0]),
    ).toEqual([
      ['1.0.0', 20, 0],
      ['1.1.0', 20, -2],
      ['1.2.0', 20, 0],
    ]);
    // The latest change: from −2 ± 0.1 to 0 ± 0.1, 20 sessions each: +2 ± 0.065680 (as above).
    expect(drift.change.estimate).toBeCloseTo(2, 10);
    expect(drift.since.timestamp).toBe('2026-10-26T16:00:00.000Z');
    const text = await report(['--input', path], dir);
    const rows = text.split('\n').filter((line) => line.includes('│ 2026-1'));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/│ 2026-10-18 to 2026-10-26 │\s+20 │ 1\.1\.0\s+│\s+-2\.000 │/);
    expect(text).toContain('  r/one: changed by +2.000 [+1.934, +2.066] from 2026-10-26 (session s-000040; 2 changes,');
  }, 60_000);

  it('shows no period table and raises no REVIEWER_DRIFT where no reviewer changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-drift-'));
    const path = join(dir, 'bias_metrics.jsonl');
    await createBiasStore({ path }).append(
      recordsFromObservations(plantedObservations({ sessions: 40 }), { consent: 1, hashSecret: null, query: null }),
    );
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    expect(json.report.flags.map((f) => f.code)).not.toContain('REVIEWER_DRIFT');
    expect(await report(['--input', path], dir)).not.toContain('offset changed');
    expect(await report(['--input', path, '--format', 'html'], dir)).not.toContain('offset changed');
  }, 60_000);

  it('counts a rotating council’s membership changes instead of listing one per session', async () => {
    // 24 sessions of five members, four attending (session s: all but member s mod 5), each scoring the other
    // three answers alike: membership differs from the session before at every one of the 23 later sessions.
    const members = ['m/0', 'm/1', 'm/2', 'm/3', 'm/4'];
    const observations: BiasObservation[] = [];
    for (let s = 0; s < 24; s++) {
      const here = members.filter((_, m) => m !== s % 5);
      for (const reviewer of here)
        here
          .filter((c) => c !== reviewer)
          .forEach((candidate, p) =>
            observations.push({
              sessionId: `s-${String(s).padStart(2, '0')}`,
              timestamp: new Date(START + s * HALF_DAY).toISOString(),
              reviewer,
              candidate,
              position: (p + s) % 3,
              responseLengthChars: 1000 + 100 * members.indexOf(candidate),
              score: 5 + members.indexOf(candidate) / 2,
              rankPosition: null,
              configVersion: '1.0.0',
              queryCategory: null,
            }),
          );
    }
    const dir = mkdtempSync(join(tmpdir(), 'council-rotating-'));
    const path = join(dir, 'bias_metrics.jsonl');
    await createBiasStore({ path }).append(
      recordsFromObservations(observations, { consent: 1, hashSecret: null, query: null }),
    );
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    expect(json.report.membershipChanges).toMatchObject({ count: 23, sessions: 24 });
    expect(json.report.changePoints).toEqual([]);
    const text = await report(['--input', path, '--verbose'], dir);
    expect(text).toContain('note: Membership changed at 23 of 24 sessions (4–4 of 5 members a session)');
    expect(text).not.toContain('change point at');
    const html = await report(['--input', path, '--format', 'html'], dir);
    expect(html).toContain('<li>Membership changed at 23 of 24 sessions');
    expect(html).not.toContain('Change point ');
  }, 60_000);
});
