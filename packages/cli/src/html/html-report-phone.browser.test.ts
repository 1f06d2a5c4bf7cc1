import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { chromiumPath } from '../testing/open-dashboard.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

describe.runIf(existsSync(chromiumPath))('the HTML bias report at a phone’s width (390 px, chromium)', () => {
  it('the demo’s report, every data table open, scrolls no table or chart past the screen and the page not sideways', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-report-phone-'));
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const c = captureIo();
      expect(await runCli(['demo', '--home', home], { version: '1.0.0', io: c.io, env: {}, cwd: home })).toBe(0);
      // The report has no script: JavaScript off, as a reader who opens the file from a mail may have it.
      const page = await browser.newPage({ viewport: PHONE, javaScriptEnabled: false });
      await page.goto(pathToFileURL(join(home, 'bias-report.html')).href, { waitUntil: 'load' });
      // Each chart's data table, folded by default, opened as a reader would.
      const details = page.locator('details');
      const folded = await details.count();
      expect(folded).toBeGreaterThanOrEqual(6);
      for (let i = 0; i < folded; i++) await details.nth(i).locator('summary').click();
      expect(await page.locator('details[open]').count()).toBe(folded);

      const measured = await measurePhoneOverflow(page);
      expect(measured.viewport).toBe(PHONE.width);
      // The summary table, six charts and six data tables (position, reviewers, length, two trends, affinity).
      expect(measured.measured).toBeGreaterThanOrEqual(1 + 6 + 6);
      expect(measured.escaped).toEqual([]);
      expect(measured.scrollWidth).toBeLessThanOrEqual(PHONE.width);
      // The charts are drawn to the screen's width, not cut or left at their desktop size.
      const widths = await page.evaluate<number[]>(
        `[...document.querySelectorAll('svg.chart')].map((svg) => svg.getBoundingClientRect().width)`,
      );
      expect(widths).toHaveLength(6);
      for (const w of widths) {
        expect(w).toBeLessThanOrEqual(PHONE.width);
        expect(w).toBeGreaterThan(PHONE.width / 2);
      }
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'bias-report-phone.png'), fullPage: true });
    } finally {
      await browser.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
