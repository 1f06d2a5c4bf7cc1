import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BiasObservation } from '@council/bias-audit';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';

const TOKEN = 'dashboard-drift-power-token-0123456789abcdef01234';
const NOW = '2026-11-05T00:00:00Z';
const START = Date.parse('2026-10-10T00:00:00Z');
const HALF_DAY = 12 * 3_600_000;
const REVIEWERS = ['r/one', 'r/two', 'r/three', 'r/four'];
const AUTHORS = ['c/a', 'c/b', 'c/c', 'c/d'];

/**
 * `sessions` sessions, one every 12 hours from 2026-10-10. Four reviewers score four answers alike (shown in an order
 * that moves on one place a session), except r/one: 0.3 above the others in even sessions and 0.3 below in odd ones.
 * No one changes. At 20 sessions r/one's step at the even split has SE √0.02 = 0.141 (each half's mean 0, sample
 * variance 10·0.09/9 = 0.1), so the change the drift test would likely miss is over 0.25 + 2.94·0.141 = 0.67 points.
 */
function observations(sessions: number): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < sessions; s++)
    for (const reviewer of REVIEWERS)
      AUTHORS.forEach((_, position) => {
        const candidate = AUTHORS[(position + s) % AUTHORS.length]!;
        out.push({
          sessionId: `s-${String(s).padStart(2, '0')}`,
          timestamp: new Date(START + s * HALF_DAY).toISOString(),
          reviewer,
          candidate,
          position,
          responseLengthChars: 800 + 100 * position,
          score: 5 + (candidate === 'c/a' ? 1 : 0) + (reviewer === 'r/one' ? (s % 2 === 0 ? 0.3 : -0.3) : 0),
          rankPosition: position,
          configVersion: '1.0.0',
          queryCategory: null,
        });
      });
  return out;
}

describe.runIf(existsSync(chromiumPath))(
  "the dashboard says what change a short window's drift test would likely have missed (chromium)",
  () => {
    let dashboard: OpenDashboard;

    beforeAll(async () => {
      dashboard = await openDashboard({ observations: observations(20), token: TOKEN, now: NOW });
    }, 30_000);

    afterAll(async () => {
      await dashboard?.close();
    });

    it("shows r/one's line under the reviewers' offsets, and no one else's", async () => {
      const { page, problems } = dashboard;
      await page.goto(`${dashboard.url}/#/dashboard`);
      const bias = page.locator('section[aria-labelledby="dash-bias"]');
      const power = bias.getByRole('list', { name: 'Drift test power' });
      await power.waitFor({ timeout: 20_000 });
      const lines = (await power.locator('li').allTextContents()).map((l) => l.replace(/\s+/g, ' '));
      expect(lines).toHaveLength(1);
      const d =
        /^r\/one: no change found; with 20 sessions a change smaller than ±(\d\.\d\d) points would likely go unseen$/.exec(
          lines[0]!,
        );
      expect(Number(d?.[1])).toBeGreaterThan(0.66);
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
