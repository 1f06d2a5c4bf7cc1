import { existsSync } from 'node:fs';
import type { BiasObservation } from '@council/bias-audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';

const TOKEN = 'dashboard-style-reason-token-0123456789abcdef01';
const NOW = '2026-11-05T00:00:00Z';

/**
 * 13 sessions in which three members score each other's answers 7 and rank them in the order shown, which alternates,
 * every answer of a session as long as the others (800 characters): there is no length to hold fixed.
 */
function flatObservations(): BiasObservation[] {
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
            responseLengthChars: 800,
            score: 7,
            rankPosition: (k + i) % 2,
            configVersion: '1.0.0',
            queryCategory: 'coding',
          }),
        );
  return out;
}

describe.runIf(existsSync(chromiumPath))(
  'the dashboard’s style-controlled ratings on degenerate data (chromium)',
  () => {
    let dashboard: OpenDashboard;

    beforeAll(async () => {
      dashboard = await openDashboard({ observations: flatObservations(), token: TOKEN, now: NOW });
    }, 30_000);

    afterAll(async () => {
      await dashboard?.close();
    });

    it('says why there are no style-controlled ratings, and that the calibrated intervals have no width because nothing varied', async () => {
      const { page, problems } = dashboard;
      await page.goto(`${dashboard.url}/#/dashboard`);
      const board = page.locator('section[aria-labelledby="dash-leaderboard"]');
      const section = board.locator('details.style-controlled');
      await section.locator('summary').click({ timeout: 30_000 });
      const text = section.locator('p', { hasText: 'Not computable' });
      await text.waitFor({ timeout: 30_000 });
      expect(await text.textContent()).toBe(
        'Not computable: every ranked answer in this window has the same length, so there is no style to control for.',
      );
      await board.getByRole('button', { name: 'Calibrated' }).click();
      expect(await board.textContent()).toContain(
        'Every score in the window is 7.00: with no spread there is nothing to calibrate, and the intervals have no width because the scores never varied, not because the order is certain.',
      );
      expect(problems).toEqual([]);
    }, 90_000);
  },
);
