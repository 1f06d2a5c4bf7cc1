import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { aggregateBiasAudit } from '@council/bias-audit';
import { biasMetricRecordSchema, createBiasStore, recordsFromObservations } from '@council/bias-store';
import { plantedObservations, writePlantedStore } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';

const NOW = '2026-11-05T00:00:00Z';

async function store(sessions: number): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'council-report-'));
  const path = join(dir, 'bias_metrics.jsonl');
  await writePlantedStore(path, { sessions });
  return { dir, path };
}

async function report(args: string[], cwd: string, env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(['bias-report', '--now', NOW, ...args], { version: '1.0.0', io: c.io, env, cwd });
  return { code, out: c.out(), err: c.err() };
}

describe('council bias-report', () => {
  it('shows only "Collecting data…" below 10 sessions', async () => {
    const { dir, path } = await store(6);
    const r = await report(['--input', path], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Collecting data…\n6 of the 10 sessions needed before any figure is shown.');
    expect(r.out).not.toContain('A (1st)');
  });

  it('says "1 session" of a window of one, and names the config key that turns records on', async () => {
    const { dir, path } = await store(1);
    const r = await report(['--input', path], dir);
    expect(r.out).toMatch(/\n1 session · /);
    expect(r.out).toContain('`bias_persistence: true` in config.yaml');
    const html = (await report(['--input', path, '--format', 'html'], dir)).out;
    expect(html).toMatch(/>1 session · /);
  });

  it('carries no metric, p-value, test or anomaly below 10 sessions, in JSON, CSV or HTML (ADR-018)', async () => {
    // 9 sessions of the planted store: at 10 its first position's effect, the position test and the weights show.
    const { dir, path } = await store(9);
    const json = JSON.parse((await report(['--input', path, '--format', 'json'], dir)).out) as BiasReportDocument;
    expect(json.report.confidence).toBe('insufficient_data');
    const shown: string[] = [];
    const walk = (x: unknown, at: string): void => {
      if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${at}[${i}]`));
      else if (typeof x === 'object' && x !== null) for (const [k, v] of Object.entries(x)) walk(v, `${at}.${k}`);
      else if (
        typeof x === 'number' &&
        /\.(estimate|ciLower|ciUpper|pValue|statistic|value|robustZ|centreWeight)$/.test(at)
      )
        shown.push(at);
    };
    walk(json.report, 'report');
    expect(shown).toEqual([]);
    expect([json.report.tests, json.report.anomalies, json.report.position.tests]).toEqual([[], [], []]);
    const rows = (await report(['--input', path, '--format', 'csv'], dir)).out.trimEnd().split('\r\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    // estimate, ci_lower, ci_upper and p_value (columns 1, 2, 3, 11) empty on every row.
    for (const row of rows) expect([1, 2, 3, 11].map((i) => row.split(',')[i])).toEqual(['', '', '', '']);
    const html = (await report(['--input', path, '--format', 'html'], dir)).out;
    expect(html).toContain('Collecting data…');
    expect(html).not.toMatch(/p [=<]|anomal|<svg/i);
    const ten = await report(['--input', (await store(10)).path, '--format', 'json'], dir);
    expect((JSON.parse(ten.out) as BiasReportDocument).report.position.tests.length).toBeGreaterThan(0);
  });

  it('shows a figure that would flag from fewer sessions than minSessions, and flags nothing from it', async () => {
    // 24 planted sessions; in the first 12 a fifth reviewer scores every answer 2 points below the others (the
    // same position bonus): its offset is −2 with a point interval, from its own 12 sessions (preliminary), in a
    // window of 24 ≥ minSessions 20.
    const dir = mkdtempSync(join(tmpdir(), 'council-report-'));
    const path = join(dir, 'bias_metrics.jsonl');
    const observations = plantedObservations({ sessions: 24 });
    const harsh = plantedObservations({ sessions: 12, reviewers: ['r/harsh'] }).map((o) => ({
      ...o,
      score: o.score! - 2,
    }));
    await createBiasStore({ path }).append(
      recordsFromObservations([...observations, ...harsh], { consent: 1, hashSecret: null, query: null }),
    );
    const json = JSON.parse((await report(['--input', path, '--format', 'json'], dir)).out) as BiasReportDocument;
    const offset = json.report.reviewers.find((r) => r.reviewer === 'r/harsh')!.offset;
    expect(offset).toMatchObject({ sessions: 12, confidence: 'preliminary' });
    expect(offset.estimate).toBeCloseTo(-2, 10);
    expect(offset.flagWithheld).toEqual({ code: 'HARSH_REVIEWER', minSessions: 20 });
    expect(json.report.flags.map((f) => f.code)).not.toContain('HARSH_REVIEWER');
    const line =
      'too little data: 12 sessions, 20 needed for a flag (harsh reviewer): r/harsh scores 2.00 points below the typical reviewer [2.00–2.00]';
    expect((await report(['--input', path], dir)).out).toContain(`  not flagged, ${line}\n`);
    expect((await report(['--input', path, '--format', 'html'], dir)).out).toContain(`<li>Not flagged, ${line}</li>`);
  });

  it('says position is not estimable where each author is always shown at its own index, in every format', async () => {
    // The planted store with its orders never shuffled: c/a always first and scored a point above the rest. Read
    // naively, the first position's centred score is +0.75 (a flag); but position is c/a: 0% of position's
    // variation within sessions is left once the author is known.
    const dir = mkdtempSync(join(tmpdir(), 'council-report-'));
    const path = join(dir, 'bias_metrics.jsonl');
    const candidates = ['c/a', 'c/b', 'c/c', 'c/d'];
    const fixed = plantedObservations({ sessions: 20 }).map((o) => {
      const position = candidates.indexOf(o.candidate);
      return { ...o, position, rankPosition: position, score: 5 + (position === 0 ? 1 : 0) };
    });
    await createBiasStore({ path }).append(
      recordsFromObservations(fixed, { consent: 1, hashSecret: null, query: null }),
    );
    const reason = 'position is fixed by author: the authors were shown in the same order in 20 of 20 sessions';
    const json = JSON.parse((await report(['--input', path, '--format', 'json'], dir)).out) as BiasReportDocument;
    expect(json.report.position.identifiability).toMatchObject({
      estimable: false,
      cause: 'author',
      minimumShare: 0.5,
    });
    expect(json.report.position.identifiability!.reason).toContain(reason);
    expect(json.report.position.effects.map((e) => [e.estimable, e.estimate])).toEqual([
      [false, null],
      [false, null],
      [false, null],
      [false, null],
    ]);
    expect(json.report.position.tests).toEqual([]);
    expect(json.report.flags.map((f) => f.code)).not.toContain('POSITION_BIAS_DETECTED');
    const text = (await report(['--input', path], dir)).out;
    expect(text).toContain(`  not estimable: ${reason}`);
    expect(text).toContain('; no position test or flag.\n');
    const csv = (await report(['--input', path, '--format', 'csv'], dir)).out;
    expect(csv).toContain(`position_effect[0],,,,0.95,`);
    expect(csv).toContain(`"Not estimable: ${reason}`);
    const html = (await report(['--input', path, '--format', 'html'], dir)).out;
    expect(html).toContain(`Position is not estimable: ${reason}`);
  });

  it('says which filter or window left every record out, instead of only asking for more data', async () => {
    const { dir, path } = await store(12);
    const filtered = await report(['--input', path, '--model', 'no/such-model', '--format', 'json'], dir);
    expect(filtered.code).toBe(0);
    // 12 sessions × 16 records = 192, all read and all left out by the filter.
    expect((JSON.parse(filtered.out) as BiasReportDocument).input).toMatchObject({
      records: 192,
      kept: 0,
      outsideWindow: 192,
      excluded: { model: 192 },
    });
    expect(filtered.err).toBe(
      `council: the window kept none of the 192 records in ${path}: 192 records do not involve --model no/such-model (check the id: \`council history list\` shows the members).\n`,
    );
    // A window that ends before the first record leaves everything outside it.
    const c = captureIo();
    expect(
      await runCli(['bias-report', '--input', path, '--now', '2020-01-01T00:00:00Z'], {
        version: '1.0.0',
        io: c.io,
        env: {},
        cwd: dir,
      }),
    ).toBe(0);
    expect(c.err()).toBe(
      `council: the window kept none of the 192 records in ${path}: 192 records are timestamped after the end of the window, 2020-01-01T00:00:00.000Z (set --now later, or check the clock that wrote them).\n`,
    );
  });

  it('says when every record is of a schema this Council cannot read, or older than the day window', async () => {
    const { dir, path } = await store(3);
    // The same 3 × 16 = 48 records relabelled as schema 2.0.0: none is readable, and the user is told why.
    const foreign = join(dir, 'foreign.jsonl');
    writeFileSync(
      foreign,
      readFileSync(path, 'utf8').replaceAll('"schema_version":"1.1.0"', '"schema_version":"2.0.0"'),
    );
    const r = await report(['--input', foreign], dir);
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      `council: 48 records use schema major 2, which this Council cannot read: upgrade Council to read schema 2.\n`,
    );
    expect(r.err).toContain(
      `council: none of the 48 lines in ${foreign} is a bias record this Council can read (see the skipped lines above).\n`,
    );
    // A window of 1 day ending a year after the records leaves all 48 out as older than the window.
    const c = captureIo();
    expect(
      await runCli(['bias-report', '--input', path, '--days', '1', '--now', '2027-11-05T00:00:00Z'], {
        version: '1.0.0',
        io: c.io,
        env: {},
        cwd: dir,
      }),
    ).toBe(0);
    expect(c.err()).toBe(
      `council: the window kept none of the 48 records in ${path}: 48 records are older than the 1-day window (widen it with --days, or set --now).\n`,
    );
  });

  it('warns of high volatility from 10 to 19 sessions, and shows intervals', async () => {
    const { dir, path } = await store(14);
    const r = await report(['--input', path], dir);
    expect(r.out).toContain(
      '⚠ High volatility: only 14 sessions (fewer than 20). Read the intervals, not the point estimates.',
    );
    expect(r.out).toMatch(/A \(1st\) +│ +\+\d\.\d{3} │ \[[-+]\d\.\d{3}, [-+]\d\.\d{3}\] │/);
  });

  it('reports the planted position effect with its t interval (moderate tier at 20 sessions)', async () => {
    const { dir, path } = await store(20);
    const r = await report(['--input', path], dir);
    expect(r.out).toContain('Evidence: moderate (20–49 sessions). Every figure shows its 95% interval.');
    // Per-session values: 0.75 in 10 sessions, 1.5 in 10. Mean 1.125; SD √(20·0.375²/19) = 0.384737;
    // SE 0.086030; t(0.975, 19) = 2.093024; half-width 0.180064 → [0.944936, 1.305064].
    expect(r.out).toMatch(/A \(1st\) +│ +\+1\.125 │ \[\+0\.945, \+1\.305\] │ 20 │ +20 │/);
    // The other positions get −b/4: −0.25 or −0.5, mean −0.375.
    expect(r.out).toMatch(/B \(2nd\) +│ +-0\.375 │/);
    // Beyond the position margin (0.1 points by default), with its interval; a margin test of t = (1.125 − 0.1)/0.086030 = 11.9
    // on 19 df leaves p far below 0.001 even after Holm.
    // Said to two decimals: 1.125 lies on the rounding boundary (1.12 or 1.13 as its last bit falls), the interval not.
    expect(r.out).toMatch(
      /⚑ Position bias: answers shown first score 1\.1[23] points higher than average \[0\.94–1\.31\] \(flag margin ±0\.1, adjusted p < 0\.001\)\n/,
    );
    expect(r.out).toContain(
      '  a flag needs its 95% interval beyond: length ±0.05 pts/1,000 chars, position ±0.1 pts (±0.05 rank points),\n',
    );
    // Below 100 sessions the position test permutes, 1,000 times by default.
    expect(r.out).toContain(
      '  no-position-effect test on scores: 1,000 within-session permutations, p < 0.001 (20 sessions)\n',
    );
    expect(r.out).toMatch(/slope within sessions +│/);
    expect(r.out).toMatch(/between sessions \(association, not flagged\) +│/);
  });

  it('measures reviewers against the typical reviewer: identical reviewers have offset 0 and no flag; --verbose shows each profile with intervals', async () => {
    const { dir, path } = await store(20);
    const r = await report(['--input', path, '--verbose'], dir);
    // The four reviewers give every answer the same score, so each is exactly the typical reviewer.
    expect(r.out).toMatch(/r\/one +│ +0\.000 │ \[0\.000, 0\.000\] │ 80 │ +20 │/);
    expect(r.out).not.toMatch(/HARSH_REVIEWER|GENEROUS_REVIEWER/);
    // Each reviewer scores 5 four times a session plus the bonus b (1 or 2) once: session means 5 + b/4 = 5.25 or 5.5,
    // mean 5.375; SD of the session means 0.125·√(20/19) = 0.128247, SE 0.028677, half-width 2.093024 × that = 0.060022
    // → [5.315, 5.435]. The SD of the 80 scores (60 fives, 10 sixes, 10 sevens): √(38.75/79) = 0.700.
    expect(r.out).toMatch(/│ r\/one +│ 5\.38 \[5\.31, 5\.44\] │ 0\.70 \[\d\.\d\d, \d\.\d\d\] │ [^│]+│ 80 │ +20 │/);
    // No reviewer scored its own answer (reviewers and candidates are different models).
    expect(r.out).toContain(
      'Self-preference (points a reviewer adds to its own answer, beyond its offset)\n  none: no reviewer scored its own answer in the window.\n',
    );
    const json = await report(['--input', path, '--format', 'json'], dir);
    const reviewers = (JSON.parse(json.out) as BiasReportDocument).report.reviewers;
    expect(reviewers.map((x) => x.reviewer)).toEqual(['r/four', 'r/one', 'r/three', 'r/two']);
    for (const x of reviewers) {
      expect(x.offset.estimate).toBeCloseTo(0, 10);
      expect(x.mean.estimate).toBeCloseTo(5.375, 10);
      expect(x.mean.ciLower).toBeCloseTo(5.375 - 0.060022, 5);
      expect(x.standardDeviation.estimate).toBeCloseTo(Math.sqrt(38.75 / 79), 10);
    }
  });

  it('--resamples 0 takes the asymptotic Wald F test; --resamples n permutes n times', async () => {
    const { dir, path } = await store(20);
    const wald = await report(['--input', path, '--resamples', '0'], dir);
    expect(wald.code).toBe(0);
    // Every session's centred scores are b·(0.75, −0.25, −0.25, −0.25): one direction, so F is the squared t of the first
    // position's effect, 1.125² / (0.375²·20/19 / 20) = 171.
    expect(wald.out).toContain('  no-position-effect test on scores: Wald F = 171.00, p < 0.001 (20 sessions)\n');
    const doc = (args: string[]) =>
      report(['--input', path, '--format', 'json', ...args], dir).then(
        (x) => (JSON.parse(x.out) as BiasReportDocument).report,
      );
    const asymptotic = await doc(['--resamples', '0']);
    expect(asymptotic.resamples).toBe(0);
    expect(asymptotic.position.tests[0]).toMatchObject({
      basis: 'scores',
      method: 'wald_f',
      permutations: 0,
      sessions: 20,
    });
    const permuted = await doc(['--resamples', '200']);
    expect(permuted.resamples).toBe(200);
    expect(permuted.position.tests[0]).toMatchObject({
      basis: 'scores',
      method: 'permutation',
      permutations: 200,
      sessions: 20,
    });
    // The seed is the permutations' only source of chance: the same seed, the same report.
    expect(await doc(['--resamples', '200', '--seed', '9'])).toEqual(await doc(['--resamples', '200', '--seed', '9']));
  });

  it('prints one valid JSON document with a stable top level, and nothing else on stdout', async () => {
    const { dir, path } = await store(20);
    const r = await report(['--input', path, '--format', 'json'], dir);
    const doc = JSON.parse(r.out) as BiasReportDocument;
    expect(Object.keys(doc)).toEqual([
      'kind',
      'schemaVersion',
      'generatedAt',
      'simulated',
      'input',
      'options',
      'report',
    ]);
    expect(doc.kind).toBe('council-bias-report');
    expect(doc.input).toMatchObject({ path, records: 20 * 16, skipped: 0 });
    expect(doc.options).toMatchObject({ now: '2026-11-05T00:00:00.000Z', seed: 1 });
    expect(doc.report.window.sessions).toBe(20);
    // The documented default margins, and the new length figures in place of the pooled correlation.
    expect(doc.report.margins).toEqual({
      lengthSlope: 0.05,
      position: 0.1,
      rankPosition: 0.05,
      reviewerOffset: 0.25,
      selfPreference: 0.25,
      affinity: 0.25,
      anchoring: 0.05,
    });
    expect(Object.keys(doc.report.length)).toEqual(['slope', 'correlation', 'betweenSessions']);
    expect(doc.report).not.toHaveProperty('lengthCorrelation');
    const first = doc.report.position.effects.find((m) => m.metric === 'position_effect[0]')!;
    expect(first.estimate).toBeCloseTo(1.125, 10);
    expect(first.ciLower).toBeCloseTo(0.944936, 5);
    expect(first.ciUpper).toBeCloseTo(1.305064, 5);
  });

  it('writes CSV with one row per metric, and HTML to a file with a note on stderr', async () => {
    const { dir, path } = await store(20);
    const csv = await report(['--input', path, '--format', 'csv'], dir);
    const rows = csv.out.trimEnd().split('\r\n');
    expect(rows[0]).toBe(
      'metric,estimate,ci_lower,ci_upper,level,sample_size,unit,sessions,window_start,window_end,confidence,p_value,margin,interval_method,note',
    );
    const pos0 = rows.find((row) => row.startsWith('position_effect[0],'))!.split(',');
    expect(Number(pos0[1])).toBeCloseTo(1.125, 10);
    expect(pos0[10]).toBe('moderate');
    expect(pos0[12]).toBe('0.1'); // the default position margin
    // Reading order: the three length figures first; the between-session one is never flagged, so it has no margin.
    expect(rows.slice(1, 4).map((row) => row.split(',')[0])).toEqual([
      'length_slope_per_1000_chars',
      'length_score_correlation',
      'length_between_sessions_per_1000_chars',
    ]);
    expect(rows[1]!.split(',')[12]).toBe('0.05');
    expect(rows[3]!.split(',')[12]).toBe('');
    // Per reviewer, in order: offset, z, mean, SD.
    expect(rows.map((row) => row.split(',')[0]).filter((m) => m?.endsWith('[r/one]'))).toEqual([
      'reviewer_offset[r/one]',
      'reviewer_z[r/one]',
      'reviewer_mean[r/one]',
      'reviewer_sd[r/one]',
    ]);
    const html = await report(['--input', path, '--format', 'html', '--output', 'out/../report.html'], dir);
    expect(html.out).toBe('');
    expect(html.err).toBe(`Wrote the html report to ${join(dir, 'report.html')}\n`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it("reads only the window's records, yet reports exactly what aggregating every record gives", async () => {
    const { dir, path } = await store(30);
    // An older session written last (a late writer): the window goes by time, not by file order.
    const late = { sessions: 1, start: '2026-10-20T00:00:00Z', prefix: 'late' };
    await writePlantedStore(path, late);
    const r = await report(
      ['--input', path, '--format', 'json', '--sessions', '12', '--resamples', '50', '--seed', '3'],
      dir,
    );
    const doc = JSON.parse(r.out) as BiasReportDocument;
    expect(doc.input).toMatchObject({
      lines: 31 * 16,
      records: 31 * 16,
      kept: 12 * 16,
      outsideWindow: 19 * 16,
      excluded: { beyondSessions: 19 * 16 },
      skipped: 0,
    });
    const everything = [...plantedObservations({ sessions: 30 }), ...plantedObservations(late)].map((o) => ({
      ...o,
      queryCategory: null,
    }));
    const expected = aggregateBiasAudit(everything, {
      window: { now: NOW, sessions: 12, days: 30 },
      minSessions: 20,
      seed: 3,
      resamples: 50,
    });
    expect(expected.position.tests[0]).toMatchObject({ method: 'permutation', permutations: 50 });
    // Only the counts of what was left out differ: the CLI never handed those records over.
    const { excluded: _a, ...window } = doc.report.window;
    const { excluded: _b, ...expectedWindow } = expected.window;
    expect(window).toEqual(expectedWindow);
    expect({ ...doc.report, window: null }).toEqual(JSON.parse(JSON.stringify({ ...expected, window: null })));
  });

  it('filters by model and window size, and reads the default store under the home', async () => {
    const { dir } = await store(0 + 20);
    const r = await report(['--format', 'json', '--sessions', '12'], dir, { LLM_COUNCIL_HOME: dir });
    expect((JSON.parse(r.out) as BiasReportDocument).report.window.sessions).toBe(12);
    const m = await report(['--format', 'json', '--model', 'nobody/none'], dir, { LLM_COUNCIL_HOME: dir });
    expect((JSON.parse(m.out) as BiasReportDocument).report.window.observations).toBe(0);
  });

  it('skips and reports a torn line instead of failing, and errors clearly on a missing --input', async () => {
    const { dir, path } = await store(12);
    appendFileSync(path, '{"schema_version":"1.1.0","session_id":"tor');
    const r = await report(['--input', path], dir);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      `council: skipped 1 unreadable line (1 torn_line); first: ${path}:193 (torn_line). The rest was read.\n`,
    );
    const missing = await report(['--input', 'nope.jsonl'], dir);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(
      `council: No bias records at ${join(dir, 'nope.jsonl')}: the file does not exist. Check the input path, or run sessions first (council demo writes some).\n`,
    );
  });

  it("reports the same from a compact store, one written with Python's default separators, and a pretty-printed one", async () => {
    const { dir, path: compact } = await store(20);
    const objects = recordsFromObservations(plantedObservations({ sessions: 20 }), {
      consent: 1,
      hashSecret: null,
      query: null,
    }).map((r) => biasMetricRecordSchema.encode(r) as Record<string, unknown>);
    // json.dumps(record): ", " and ": " between tokens, floats as 6.0 (these records hold no nested object).
    const python = (o: Record<string, unknown>): string =>
      `{${Object.entries(o)
        .map(
          ([k, v]) =>
            `${JSON.stringify(k)}: ${k === 'score_value' && Number.isInteger(v) ? `${String(v)}.0` : JSON.stringify(v)}`,
        )
        .join(', ')}}`;
    // Spaces inside the braces too, { "a": 1, "b": null }, and CRLF line ends.
    const pretty = (o: Record<string, unknown>): string => JSON.stringify(o, null, 1).replace(/\n */g, ' ');
    writeFileSync(join(dir, 'python.jsonl'), objects.map((o) => `${python(o)}\n`).join(''));
    writeFileSync(join(dir, 'pretty.jsonl'), objects.map((o) => `${pretty(o)}\r\n`).join(''));
    expect(readFileSync(join(dir, 'python.jsonl'), 'utf8')).toMatch(
      /^\{"schema_version": "1\.1\.0", "session_id": "s-000000", .*"query_metadata": null, .*"score_value": 6\.0, /,
    );
    expect(readFileSync(join(dir, 'pretty.jsonl'), 'utf8')).toMatch(
      /^\{ "schema_version": "1\.1\.0", "session_id": "s-000000", .* \}\r\n/,
    );

    const docs = await Promise.all(
      [compact, join(dir, 'python.jsonl'), join(dir, 'pretty.jsonl')].map(async (path) => {
        const r = await report(['--input', path, '--format', 'json'], dir);
        expect(r.code).toBe(0);
        const { generatedAt: _g, input, ...doc } = JSON.parse(r.out) as BiasReportDocument;
        const { path: _p, paths: _ps, ...counts } = input;
        return { ...doc, input: counts };
      }),
    );
    expect(docs[0]!.input).toMatchObject({ records: 20 * 16, kept: 20 * 16, skipped: 0 });
    expect(docs[0]!.report.window.sessions).toBe(20);
    expect(docs[1]).toEqual(docs[0]);
    expect(docs[2]).toEqual(docs[0]);
  });

  it('rejects a bad --format, --now or --resamples with exit 2', async () => {
    const bad = await report(['--format', 'pdf'], tmpdir());
    expect(bad).toMatchObject({ code: 2, err: 'council: --format must be one of text, json, csv, html, got "pdf".\n' });
    expect(await report(['--resamples', '5'], tmpdir())).toMatchObject({
      code: 2,
      err: 'council: --resamples must be 0 (the asymptotic Wald F test) or at least 20 permutations, got 5.\n',
    });
    expect(await report(['--resamples=-1'], tmpdir())).toMatchObject({
      code: 2,
      err: 'council: --resamples must be at least 0, got -1.\n',
    });
    expect(await report(['--resamples', 'many'], tmpdir())).toMatchObject({
      code: 2,
      err: 'council: --resamples expects a whole number, got "many". Example: --resamples 0.\n',
    });
    const c = captureIo();
    const code = await runCli(['bias-report', '--now', 'yesterday'], {
      version: '1',
      io: c.io,
      env: {},
      cwd: tmpdir(),
    });
    expect(code).toBe(2);
    expect(c.err()).toBe('council: --now expects an ISO 8601 time such as 2026-11-22T12:00:00Z, got "yesterday".\n');
  });
});
