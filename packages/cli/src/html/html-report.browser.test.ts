import { mkdirSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sampleReportData } from '../testing/sample-report-data.js';
import { renderHtmlReport } from './render-html-report.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

describe.runIf(existsSync(executablePath))('the HTML report in a real browser', () => {
  it('renders every chart with SVG marks, logs no console error, requests nothing, and is screenshotted', async () => {
    const dir = join(tmpdir(), `council-html-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtmlReport(sampleReportData()));
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 }, javaScriptEnabled: false });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      // A string expression: this package compiles without the DOM library.
      const counts = await page.evaluate<{ id: string; marks: number; width: number; height: number }[]>(
        `[...document.querySelectorAll('svg.chart')].map((svg) => { const box = svg.getBoundingClientRect(); return { id: svg.id, marks: svg.querySelectorAll('.mark').length, width: box.width, height: box.height }; })`,
      );
      expect(counts.map((c) => c.id)).toEqual(['chart-position', 'chart-harshness', 'chart-length', 'chart-trend-0', 'chart-affinity']);
      for (const c of counts) {
        expect(c.marks, c.id).toBeGreaterThan(0);
        expect(c.width, c.id).toBeGreaterThan(100);
        expect(c.height, c.id).toBeGreaterThan(50);
      }
      expect(problems).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'html-report-sample.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
