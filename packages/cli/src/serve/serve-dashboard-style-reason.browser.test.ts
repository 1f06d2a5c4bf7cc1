import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';
import { flatCouncilObservations } from '../testing/write-bias-records.js';

const TOKEN = 'dashboard-style-reason-token-0123456789abcdef01';
const NOW = '2026-11-05T00:00:00Z';

// Every score 7, ranked in the order shown (which alternates), every answer 800 characters: no length to hold fixed.
const flatObservations = () => flatCouncilObservations({ score: 7, length: () => 800, rank: (i, k) => (k + i) % 2 });

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
