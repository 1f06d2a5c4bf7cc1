import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harshReviewerObservations } from '../testing/calibrated-observations.js';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const TOKEN = 'dashboard-calibrated-token-0123456789abcdef0123';
const NOW = '2026-11-05T00:00:00Z';

/**
 * Issue 31 item 2 on the dashboard: the Raw / Calibrated toggle over the store of a harsh reviewer who scores only the
 * best member (testing/calibrated-observations.ts works it by hand): raw means m/b 7, m/a 6.5, m/c 6; calibrated m/a
 * 8, m/b 7, m/c 6. The reviewers never disagree, so n_eff says why it is not known.
 */
describe.runIf(existsSync(chromiumPath))('the dashboard’s Raw / Calibrated toggle (chromium)', () => {
  let dashboard: OpenDashboard;

  beforeAll(async () => {
    dashboard = await openDashboard({ observations: harshReviewerObservations(), token: TOKEN, now: NOW });
  }, 30_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  it('re-orders the leaderboard by calibrated score, says it is analytics only, fits style on opening, and shows n_eff under the bias figures', async () => {
    const { page, problems } = dashboard;
    await page.goto(`${dashboard.url}/#/dashboard`);
    const board = page.locator('section[aria-labelledby="dash-leaderboard"]');
    const toggle = board.getByRole('group', { name: 'Scores shown' });
    await toggle.waitFor({ timeout: 30_000 });
    const raw = toggle.getByRole('button', { name: 'Raw' });
    const calibrated = toggle.getByRole('button', { name: 'Calibrated' });
    const rows = board.locator('table.calibrated-leaderboard tbody tr');
    const members = () => rows.locator('th[scope="row"]').allTextContents();

    expect(await raw.getAttribute('aria-pressed')).toBe('true');
    expect(await calibrated.getAttribute('aria-pressed')).toBe('false');
    expect(await members()).toEqual(['m/b', 'm/a', 'm/c']);
    expect(await rows.first().locator('td.num').nth(1).textContent()).toBe('7.00 [7.00, 7.00]');

    await calibrated.click();
    expect(await calibrated.getAttribute('aria-pressed')).toBe('true');
    expect(await raw.getAttribute('aria-pressed')).toBe('false');
    expect(await members()).toEqual(['m/a', 'm/b', 'm/c']);
    expect(await rows.first().locator('td.num').nth(1).textContent()).toBe('8.00 [8.00, 8.00]');
    // Its raw rank beside it: m/a was 2nd.
    expect(await rows.first().locator('td.num').nth(2).textContent()).toBe('2');
    expect(await board.textContent()).toContain('m/a rises from 2nd to 1st; m/b falls from 1st to 2nd.');
    expect(await board.textContent()).toContain('Analytics only: live votes are unchanged.');

    const judges = page.locator('section[aria-labelledby="dash-bias"] p.effective-judges');
    expect(await judges.textContent()).toBe(
      'How many judges you really have: Not known: the reviewers never disagreed about an answer, so there is no error to compare.',
    );

    await raw.click();
    expect(await members()).toEqual(['m/b', 'm/a', 'm/c']);

    // The style-controlled ratings are fitted when first opened. The rankings follow quality, so in the plain fit m/a
    // beats everyone it meets and m/c no one: plain ranks m/a 1, m/b 2, m/c 3.
    await board.locator('details.style-controlled summary').click();
    const style = board.locator('table.style-ratings tbody tr');
    await style.first().waitFor({ timeout: 30_000 });
    const plainRanks: Record<string, string | null> = {};
    for (const row of await style.all())
      plainRanks[(await row.locator('th').textContent()) ?? ''] = await row.locator('td.num').nth(3).textContent();
    expect(plainRanks).toEqual({ 'm/a': '1', 'm/b': '2', 'm/c': '3' });
    expect(await board.locator('details.style-controlled').textContent()).toMatch(/Holding length fixed/);

    // At a phone's width the toggle and its table stay inside the page.
    await page.setViewportSize(PHONE);
    await calibrated.click();
    const measured = await measurePhoneOverflow(page);
    expect(measured.escaped).toEqual([]);
    expect(measured.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'serve-dashboard-calibrated-phone.png'), fullPage: true });
  }, 90_000);
});
