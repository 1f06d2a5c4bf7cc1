import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBERS } from '../commands/demo-sessions.js';
import { runServeCommand } from '../commands/serve-command.js';
import { testContext } from '../testing/capture-io.js';
import { chromiumPath } from '../testing/open-dashboard.js';
import type { CouncilServer } from './serve-council.js';

const TOKEN = 'serve-demo-dashboard-token-0123456789abcdef';

describe.runIf(existsSync(chromiumPath))(
  'a fresh council serve --demo: the dashboard is full on first open (chromium, the real server, offline)',
  () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-demo-page-'));
    let stop: (reason: string) => void = () => undefined;
    let exit: Promise<number>;
    let server: CouncilServer;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      // An empty home, as `council serve --demo` makes one in the temporary directory.
      const t = testContext({ env: {}, home, now: new Date() });
      const stopped = new Promise<string>((resolve) => (stop = resolve));
      const listening = new Promise<CouncilServer>((resolve) => {
        exit = runServeCommand({ demo: true, token: TOKEN }, t.ctx, { stopped, onListening: resolve });
      });
      server = await listening;
      browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/#token=${TOKEN}`);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      stop('test over');
      await exit;
      rmSync(home, { recursive: true, force: true });
    });

    it('shows the leaderboard with a row per persona, the heatmap and the bias flags in words, and says the sessions are simulated', async () => {
      await page.goto(`${server.url}/#/dashboard`);
      const leaderboard = page.locator('table.leaderboard');
      await leaderboard.locator('tbody tr').first().waitFor({ timeout: 20_000 });
      // The demo's 41 sessions, each ranking all five personas.
      expect(await leaderboard.locator('caption').textContent()).toContain('over 41 sessions');
      const members = await leaderboard.locator('tbody th[scope="row"]').allTextContents();
      expect([...members].sort()).toEqual([...DEMO_MEMBERS]);
      const heatmap = page.locator('table.heatmap');
      await heatmap.waitFor({ timeout: 20_000 });
      expect(await heatmap.locator('tbody tr').count()).toBe(DEMO_MEMBERS.length);
      const flags = page.getByRole('list', { name: 'Flags', exact: true });
      await flags.waitFor({ timeout: 20_000 });
      expect(await flags.locator('li').count()).toBeGreaterThan(0);
      expect(await page.locator('header .badge-demo').textContent()).toBe('demo: simulated sessions');
      // 41 sessions of five reviewers scoring five answers: 1,025 scores, counted as the terminal counts them.
      expect(await page.locator('main').textContent()).toContain('41 sessions, 1,025 scores · evidence: moderate');
      // The findings in words: the demo's harsh persona and position bias as sentences, no machine name, raw tier or
      // ADR number anywhere on the dashboard, and "confidence" only where it means an interval.
      const said = await flags.locator('li').allTextContents();
      expect(
        said.some((f) =>
          /^Harsh reviewer: simulated:dmitri scores \d\.\d\d points below the typical reviewer \[/.test(f),
        ),
      ).toBe(true);
      expect(
        said.some((f) => /^Position bias: answers shown first score \d\.\d\d points higher than average \[/.test(f)),
      ).toBe(true);
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\[[^\]]*\]|insufficient_data|minSessions|ADR-\d+|[Cc]onfidence/);
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
