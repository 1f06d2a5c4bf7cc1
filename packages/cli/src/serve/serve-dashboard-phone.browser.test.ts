import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longIdObservations, writeLongIdHistory } from '../testing/long-id-council.js';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const TOKEN = 'dashboard-phone-token-0123456789abcdef0123456789';
const NOW = '2026-11-05T00:00:00Z';
/**
 * Each row of `selector`'s tables, unscrolled: whether its name (the row header) and its `td.num` holding an interval
 * end within what is seen of it, the viewport and the box that scrolls the table.
 */
const INTERVALS_IN_VIEW = (selector: string) => `(() => {
  const viewport = document.documentElement.clientWidth;
  return [...document.querySelectorAll(${JSON.stringify(selector)})].flatMap((table) => {
    let box = table.parentElement;
    while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    const seen = Math.min(viewport, box ? box.getBoundingClientRect().right : viewport);
    return [...table.querySelectorAll('tbody tr')].map((row) => {
      const name = row.querySelector('th');
      const interval = [...row.children].find((c) => c.matches('td.num') && c.textContent.includes('['));
      const right = (c) => (c ? c.getBoundingClientRect().right : Infinity);
      return { row: name ? name.textContent : '', inView: right(name) <= seen + 0.5 && right(interval) <= seen + 0.5 };
    });
  });
})()`;

describe.runIf(existsSync(chromiumPath))(
  'the dashboard at a phone’s width (390 px): nothing scrolls the page sideways, intervals stay in view (chromium)',
  () => {
    let dashboard: OpenDashboard;

    beforeAll(async () => {
      dashboard = await openDashboard({
        observations: longIdObservations(),
        token: TOKEN,
        now: NOW,
        prepare: writeLongIdHistory,
      });
    }, 30_000);

    afterAll(async () => {
      await dashboard?.close();
    });

    it('fits every table and interval bar at 390 px with seven long model ids, drift periods and flags', async () => {
      const { page, problems } = dashboard;
      await page.setViewportSize(PHONE);
      await page.goto(`${dashboard.url}/#/dashboard`);
      const bias = page.locator('section[aria-labelledby="dash-bias"]');
      // Every section is filled: the leaderboard's and the heatmap's seven rows, the drift periods, three figure tables.
      await bias.locator('table.periods').waitFor({ timeout: 20_000 });
      await page.locator('table.heatmap').waitFor({ timeout: 20_000 });
      expect(await page.locator('table.leaderboard tbody tr').count()).toBe(7);
      expect(await page.locator('table.heatmap tbody tr').count()).toBe(7);
      expect(await bias.locator('table.figures').count()).toBe(3);
      expect(await bias.locator('table.figures').first().locator('tbody tr').count()).toBe(7);
      expect(await bias.getByRole('list', { name: 'Flags', exact: true }).locator('li').count()).toBeGreaterThan(0);

      const measured = await measurePhoneOverflow(page);
      expect(measured.viewport).toBe(PHONE.width);
      expect(measured.measured).toBeGreaterThanOrEqual(6 + 7 + 7 + 1);
      expect(measured.escaped).toEqual([]);
      expect(measured.scrollWidth).toBeLessThanOrEqual(PHONE.width);
      // What a reader looks for first, the name and the estimate with its interval, needs no scrolling.
      const rows = await page.evaluate<{ row: string; inView: boolean }[]>(
        INTERVALS_IN_VIEW('table.leaderboard, table.figures'),
      );
      expect(rows.length).toBe(7 + 7 + 7 + 1);
      expect(rows.filter((r) => !r.inView).map((r) => r.row)).toEqual([]);
      expect(problems).toEqual([]);
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'serve-dashboard-phone.png'), fullPage: true });
    }, 60_000);
  },
);
