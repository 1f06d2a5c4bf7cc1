import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { sampleReportData } from '../testing/sample-report-data.js';
import { renderHtmlReport } from './render-html-report.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
/** The repository's own artifacts folder (gitignored), which CI collects. */
const repoArtifacts = fileURLToPath(new URL('../../../../test-artifacts/', import.meta.url));

interface ChartBox {
  id: string;
  marks: number;
  width: number;
  height: number;
}

/** Opens `file` with JavaScript off; returns its charts, the console problems and every request made. */
async function inspect(browser: Browser, file: string, screenshot: string) {
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
  const charts = await page.evaluate<ChartBox[]>(
    `[...document.querySelectorAll('svg.chart')].map((svg) => { const box = svg.getBoundingClientRect(); return { id: svg.id, marks: svg.querySelectorAll('.mark').length, width: box.width, height: box.height }; })`,
  );
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, screenshot), fullPage: true });
  await page.close();
  return { charts, problems, requests };
}

function expectDrawn(charts: readonly ChartBox[]) {
  for (const c of charts) {
    expect(c.marks, c.id).toBeGreaterThan(0);
    expect(c.width, c.id).toBeGreaterThan(100);
    expect(c.height, c.id).toBeGreaterThan(50);
  }
}

describe.runIf(existsSync(executablePath))('the HTML report in a real browser (chromium, JavaScript off)', () => {
  it('renders every chart with SVG marks, logs no console error, requests nothing, and is screenshotted', async () => {
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      // 1. The report `council demo` writes from 41 simulated sessions: real statistics end to end.
      const home = mkdtempSync(join(tmpdir(), 'council-browser-'));
      const c = captureIo();
      expect(await runCli(['demo', '--home', home], { version: '1.0.0', io: c.io, env: {}, cwd: home })).toBe(0);
      const demoFile = join(home, 'bias-report.html');
      const demo = await inspect(browser, demoFile, 'bias-report.png');
      expect(demo.charts.map((x) => x.id)).toEqual([
        'chart-position',
        'chart-reviewers',
        'chart-length',
        'chart-trend-0',
        'chart-trend-1',
        'chart-affinity',
      ]);
      expectDrawn(demo.charts);
      // 5 positions, 5 reviewers, a 5 × 5 matrix.
      expect(demo.charts.find((x) => x.id === 'chart-affinity')?.marks).toBe(25);
      expect(demo.problems).toEqual([]);
      expect(demo.requests).toEqual([pathToFileURL(demoFile).href]);
      copyFileSync(demoFile, join(artifacts, 'bias-report.html'));
      mkdirSync(repoArtifacts, { recursive: true });
      copyFileSync(join(artifacts, 'bias-report.png'), join(repoArtifacts, 'bias-report.png'));
      copyFileSync(demoFile, join(repoArtifacts, 'bias-report.html'));

      // 2. A hand-built report with every section populated.
      const sampleFile = join(home, 'sample.html');
      writeFileSync(sampleFile, renderHtmlReport(sampleReportData()));
      const sample = await inspect(browser, sampleFile, 'html-report-sample.png');
      expect(sample.charts.map((x) => x.id)).toEqual([
        'chart-position',
        'chart-reviewers',
        'chart-length',
        'chart-trend-0',
        'chart-affinity',
      ]);
      expectDrawn(sample.charts);
      expect(sample.problems).toEqual([]);
      expect(sample.requests).toEqual([pathToFileURL(sampleFile).href]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
