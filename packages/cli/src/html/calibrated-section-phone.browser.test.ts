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

describe.runIf(existsSync(chromiumPath))('the HTML report’s calibrated sections at a phone’s width (chromium)', () => {
  let browser: Browser;
  let home = '';

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'council-calibrated-phone-'));
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

  it('seven long OpenRouter ids: the four sections’ tables scroll in their boxes, the page never sideways', async () => {
    await createBiasStore({ path: join(home, 'bias_metrics.jsonl') }).append(
      recordsFromObservations(longIdObservations(), { consent: 1, hashSecret: null, query: null }),
    );
    const file = join(home, 'report.html');
    const c = captureIo();
    const args = [
      'bias-report',
      '--home',
      home,
      '--format',
      'html',
      '--calibrated',
      '--output',
      file,
      '--now',
      '2026-11-05',
    ];
    expect(await runCli(args, { version: '1.0.0', io: c.io, env: {}, cwd: home }), c.err()).toBe(0);
    const page = await browser.newPage({ viewport: PHONE, javaScriptEnabled: false });
    try {
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      for (const id of ['calibrated', 'judges', 'pooled', 'style'])
        expect(await page.locator(`h2#${id}`).count(), id).toBe(1);
      const details = page.locator('details');
      const folded = await details.count();
      for (let i = 0; i < folded; i++) await details.nth(i).locator('summary').click();
      // The calibrated leaderboard, the pooled offsets and the style-controlled ratings, each in its .scroll box.
      expect(
        await page
          .locator('.scroll > table.calibrated, .scroll > table.pooled, .scroll > table.style-controlled')
          .count(),
      ).toBe(3);
      const measured = await measurePhoneOverflow(page);
      expect(measured.escaped).toEqual([]);
      expect(measured.scrollWidth).toBeLessThanOrEqual(PHONE.width);
      mkdirSync(artifacts, { recursive: true });
      // The four sections only, from the first one's heading to the last one's note (page coordinates).
      const [top, bottom] = await page.evaluate<[number, number]>(
        `[document.querySelector('h2#calibrated').getBoundingClientRect().top + scrollY, [...document.querySelectorAll('h2#style ~ p.meta')].at(-1).getBoundingClientRect().bottom + scrollY]`,
      );
      await page.screenshot({
        path: join(artifacts, 'bias-report-calibrated-phone.png'),
        fullPage: true,
        clip: { x: 0, y: top, width: PHONE.width, height: bottom - top },
      });
    } finally {
      await page.close();
    }
  }, 90_000);
});
