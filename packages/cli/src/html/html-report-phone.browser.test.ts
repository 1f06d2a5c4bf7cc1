import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { longIdObservations } from '../testing/long-id-council.js';
import { chromiumPath } from '../testing/open-dashboard.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/**
 * Opens the report `file` at 390 × 844 with JavaScript off (the report has no script), opens every chart's data table
 * as a reader would, and measures what sticks out; screenshots it to `screenshot` in test-artifacts.
 */
async function openAtPhoneWidth(browser: Browser, file: string, screenshot: string) {
  const page = await browser.newPage({ viewport: PHONE, javaScriptEnabled: false });
  try {
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const details = page.locator('details');
    const folded = await details.count();
    for (let i = 0; i < folded; i++) await details.nth(i).locator('summary').click();
    expect(await page.locator('details[open]').count()).toBe(folded);
    const measured = await measurePhoneOverflow(page);
    const chartWidths = await page.evaluate<number[]>(
      `[...document.querySelectorAll('svg.chart')].map((svg) => svg.getBoundingClientRect().width)`,
    );
    // Text drawn outside its chart's box is cut off by the SVG (a long id left of the plot, a long upright y label).
    const cutLabels = await page.evaluate<string[]>(
      `[...document.querySelectorAll('svg.chart')].flatMap((svg) => { const box = svg.getBoundingClientRect(); return [...svg.querySelectorAll('text')].filter((t) => { const r = t.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5; }).map((t) => svg.id + ': ' + t.textContent); })`,
    );
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, screenshot), fullPage: true });
    return { ...measured, folded, chartWidths, cutLabels };
  } finally {
    await page.close();
  }
}

describe.runIf(existsSync(chromiumPath))('the HTML bias report at a phone’s width (390 px, chromium)', () => {
  let browser: Browser;
  let home = '';

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'council-report-phone-'));
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('the demo’s report, every data table open, scrolls no table or chart past the screen and the page not sideways', async () => {
    const demoHome = join(home, 'demo');
    mkdirSync(demoHome);
    const c = captureIo();
    expect(await runCli(['demo', '--home', demoHome], { version: '1.0.0', io: c.io, env: {}, cwd: demoHome })).toBe(0);
    const seen = await openAtPhoneWidth(browser, join(demoHome, 'bias-report.html'), 'bias-report-phone.png');
    // Six charts (position, reviewers, length, two trends, affinity), each with its data table, and the summary.
    expect(seen.folded).toBe(6);
    expect(seen.measured).toBe(1 + 6 + 6);
    expect(seen.viewport).toBe(PHONE.width);
    expect(seen.escaped).toEqual([]);
    expect(seen.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    // The charts are drawn to the screen's width, not cut or left at their desktop size.
    expect(seen.cutLabels).toEqual([]);
    expect(seen.chartWidths).toHaveLength(6);
    for (const w of seen.chartWidths) {
      expect(w).toBeLessThanOrEqual(PHONE.width);
      expect(w).toBeGreaterThan(PHONE.width / 2);
    }
  }, 60_000);

  it('a report of seven long OpenRouter ids, with a drifting reviewer’s periods and flags, fits too', async () => {
    const longHome = join(home, 'long-ids');
    mkdirSync(longHome);
    await createBiasStore({ path: join(longHome, 'bias_metrics.jsonl') }).append(
      recordsFromObservations(longIdObservations(), { consent: 1, hashSecret: null, query: null }),
    );
    const file = join(longHome, 'report.html');
    const c = captureIo();
    const args = ['bias-report', '--home', longHome, '--format', 'html', '--output', file, '--now', '2026-11-05'];
    expect(await runCli(args, { version: '1.0.0', io: c.io, env: {}, cwd: longHome }), c.err()).toBe(0);
    const seen = await openAtPhoneWidth(browser, file, 'bias-report-long-ids-phone.png');
    // The summary, the drift periods, and the charts with their data tables.
    expect(seen.measured).toBeGreaterThanOrEqual(2 + 2 * seen.chartWidths.length);
    expect(seen.chartWidths.length).toBeGreaterThanOrEqual(5);
    expect(seen.escaped).toEqual([]);
    expect(seen.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(seen.cutLabels).toEqual([]);
  }, 60_000);
});
