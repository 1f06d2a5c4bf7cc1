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

const NOW = '2026-11-05T00:00:00Z';
const START = Date.parse('2026-10-10T00:00:00Z');
const HALF_DAY = 12 * 3_600_000;

/**
 * `sessions` sessions, one every 12 hours from 2026-10-10 (the planted store: four reviewers score four answers
 * alike), except r/one: 0.3 above the others in even sessions and 0.3 below in odd ones. No one changes.
 */
async function wobblyStore(sessions: number): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'council-drift-power-'));
  const path = join(dir, 'bias_metrics.jsonl');
  const observations = plantedObservations({ sessions }).map((o): BiasObservation => {
    const s = Number(o.sessionId.slice(2));
    const own = o.reviewer === 'r/one' ? (s % 2 === 0 ? 0.3 : -0.3) : 0;
    return { ...o, timestamp: new Date(START + s * HALF_DAY).toISOString(), score: o.score! + own };
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

const LINE =
  /r\/one: no change found; with 20 sessions a change smaller than ±(\d\.\d\d) points would likely go unseen/;

describe('council bias-report on a window too short for the drift test to see much', () => {
  // r/one's gap to the others is ±0.3 (even/odd session); split at 10 of 20: each half's mean 0, sample variance
  // 10·0.09/9 = 0.1, its mean's 0.01; the step's SE √0.02 = 0.141421. D ≥ 0.25 + (t + z(0.8))·SE > 0.25 + 2.94·0.1414
  // = 0.666 (t at least t(0.975, 18) = 2.101), beyond twice the margin (0.5). The others see r/one's wobble at a third:
  // SE 0.047140, D = max(…) well under 0.5 at any alpha the report uses: no line for them.
  it('says in JSON, text, HTML what change would likely have gone unseen', async () => {
    const { dir, path } = await wobblyStore(20);
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    const one = json.report.reviewers.find((r) => r.reviewer === 'r/one')!;
    expect(one.drift).toBeUndefined();
    expect(one.driftPower).toMatchObject({ sessions: 20, sessionsPerSide: 10, power: 0.8 });
    expect(one.driftPower!.standardError).toBeCloseTo(0.141421, 5);
    expect(one.driftPower!.undetectableBelow).toBeGreaterThan(0.666);
    expect(json.report.reviewers.filter((r) => r.driftPower !== undefined).map((r) => r.reviewer)).toEqual(['r/one']);
    const d = one.driftPower!.undetectableBelow.toFixed(2);

    const text = await report(['--input', path], dir);
    expect(text).toContain("Drift test power (a short window: a change in a reviewer's offset may have gone unseen)");
    expect(text.match(LINE)?.[1]).toBe(d);

    const html = await report(['--input', path, '--format', 'html'], dir);
    expect(html).toContain('<h2>Drift test power</h2>');
    expect(html.match(LINE)?.[1]).toBe(d);
  }, 60_000);

  it('says nothing of it from 40 sessions a reviewer on', async () => {
    const { dir, path } = await wobblyStore(40);
    const json = JSON.parse(await report(['--input', path, '--format', 'json'], dir)) as BiasReportDocument;
    expect(json.report.reviewers.every((r) => r.driftPower === undefined)).toBe(true);
    expect(await report(['--input', path], dir)).not.toContain('Drift test power');
    expect(await report(['--input', path, '--format', 'html'], dir)).not.toContain('Drift test power');
  }, 60_000);
});
