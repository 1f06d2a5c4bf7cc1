import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';
import { plantedObservations } from '../testing/write-bias-records.js';

const TOKEN = 'dashboard-sentences-token-0123456789abcdef012345';
const NOW = '2026-11-05T00:00:00Z';

/**
 * The planted store over 21 sessions (bias-report-sentences.test.ts works its figures by hand): the answer shown first
 * scores 0.75 or 1.5 above its reviewer's session mean, 1.107143 on average, 95% interval [0.932427, 1.281859]. In the
 * first 12 sessions a fifth reviewer, r/harsh, scores every answer exactly 2 below the others: an offset of −2 with a
 * point interval, from 12 sessions of its own, fewer than the 20 a flag needs.
 */
function observations() {
  const harsh = plantedObservations({ sessions: 12, reviewers: ['r/harsh'] }).map((o) => ({
    ...o,
    score: o.score! - 2,
  }));
  return [...plantedObservations({ sessions: 21 }), ...harsh];
}

describe.runIf(existsSync(chromiumPath))('the dashboard says each bias finding as a sentence (chromium)', () => {
  let dashboard: OpenDashboard;

  beforeAll(async () => {
    dashboard = await openDashboard({ observations: observations(), token: TOKEN, now: NOW });
  }, 30_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  it('the position flag with its size and interval, the held-back flag as too little data, 1-based positions, "evidence"', async () => {
    const { page, problems } = dashboard;
    await page.goto(`${dashboard.url}/#/dashboard`);
    const bias = page.locator('section[aria-labelledby="dash-bias"]');
    const flags = bias.getByRole('list', { name: 'Flags', exact: true });
    await flags.waitFor({ timeout: 20_000 });
    expect(await flags.locator('li').allTextContents()).toContain(
      'Position bias: answers shown first score 1.11 points higher than average [0.93–1.28]',
    );
    expect(await bias.getByRole('list', { name: 'Flags held back' }).locator('li').allTextContents()).toEqual([
      'Not flagged, too little data: 12 sessions, 20 needed for a flag (harsh reviewer): r/harsh scores 2.00 points below the typical reviewer [2.00–2.00]',
    ]);
    // The position table's rows, 1-based as a reader counts them.
    const position = bias.locator('table.figures').nth(1);
    expect(await position.locator('tbody th[scope="row"]').allTextContents()).toEqual([
      'answers shown first',
      'answers shown 2nd',
      'answers shown 3rd',
      'answers shown 4th',
    ]);
    expect(await bias.locator('p.small').first().textContent()).toContain('evidence: moderate (20–49 sessions)');
    expect(await bias.textContent()).not.toMatch(/\b[a-z]+_[a-z_]+\[[^\]]*\]|insufficient_data|minSessions|ADR-\d+/);
    expect(problems).toEqual([]);
  }, 60_000);
});
