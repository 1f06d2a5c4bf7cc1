import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';

const TOKEN = 'route-before-effects-token-0123456789abcdef0123';

// Moves the address to the dashboard as soon as the document is parsed: after the app's first render, before its
// effects (Preact runs them after the next frame), so the hashchange fires before any listener could be there.
const EARLY_HASH_CHANGE = `
  document.addEventListener('DOMContentLoaded', () => { location.hash = '#/dashboard'; });
`;

describe.runIf(existsSync(chromiumPath))('an address changed before the app has settled (chromium)', () => {
  let dashboard: OpenDashboard;

  beforeAll(async () => {
    dashboard = await openDashboard({ observations: [], token: TOKEN, now: '2026-11-05T00:00:00Z' });
  }, 30_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  it('shows the page the address names, not the chat it started on (a loaded machine hit this in CI)', async () => {
    const page = await dashboard.page.context().browser()!.newPage();
    try {
      await page.addInitScript(EARLY_HASH_CHANGE);
      await page.goto(`${dashboard.url}/#token=${TOKEN}`);
      await page.locator('#dash-leaderboard').waitFor({ timeout: 20_000 });
      expect(page.url()).toMatch(/#\/dashboard$/);
      expect(await page.locator('nav[aria-label="Pages"] [aria-current="page"]').textContent()).toBe('Dashboard');
    } finally {
      await page.close();
    }
  }, 60_000);
});
