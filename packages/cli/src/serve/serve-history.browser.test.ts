import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@council/providers/test';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { serveCouncil } from './serve-council.js';
import type { CouncilServer } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';
import { webAssets } from './web-assets.js';

// Issue 30 items 5 and 13 in the browser: the history page titles sessions by their questions, groups follow-ups
// under the question that started them, searches the questions, and opens a session with its question; the ids it
// uses are the ones POST /api/sessions returned.

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

const KEY = 'sk-or-v1-HISTORY-BROWSER-KEY';
const TOKEN = 'history-browser-token-0123456789abcdef0123';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const CANARY = 'CANARY-WEB-5e1d';
const FIRST = `Where should a legacy refactor begin? ${CANARY}`;
const FOLLOW_UP = 'And what comes second?';
const OTHER = 'What is a good name for a cat?';

describe.runIf(existsSync(executablePath))('council serve: the history page in a real browser (issue 30)', () => {
  let models: TestServer;
  let server: CouncilServer;
  let browser: Browser;
  let page: Page;
  let home = '';
  const logLines: string[] = [];
  const ids: string[] = [];

  beforeAll(async () => {
    models = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
    home = mkdtempSync(join(tmpdir(), 'council-serve-history-'));
    const ctx = testContext({
      env: {
        OPENROUTER_BASE_URL: models.url,
        OPENROUTER_API_KEY: KEY,
        LLM_COUNCIL_HOME: home,
        LLM_COUNCIL_MODELS: MEMBERS.join(','),
        LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
      },
      home,
    }).ctx;
    server = await serveCouncil({
      ctx: { ...ctx, now: () => new Date() },
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: webAssets(),
      log: (l) => logLines.push(l),
    });
    const client = createServeClient({ url: server.url, token: TOKEN });
    for (const body of [{ query: FIRST }, { query: FOLLOW_UP, continueFrom: 'first' }, { query: OTHER }] as Record<
      string,
      unknown
    >[]) {
      if (body.continueFrom === 'first') body.continueFrom = ids[0];
      const id = await client.start({ ...body, members: MEMBERS });
      await client.events(id);
      ids.push(id);
    }
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    mkdirSync(artifacts, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await models?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  const titles = () => page.locator('tr.session-row td.session-title').allTextContents();

  it('lists titles, the follow-up under its question, the newer question first; searches; opens one with its question', async () => {
    await page.goto(`${server.url}/#token=${TOKEN}`);
    await page.getByLabel('Your question').waitFor();
    await page.goto(`${server.url}/#/history`);
    await page.locator('tr.session-row').nth(2).waitFor();
    expect(await titles()).toEqual([OTHER, FIRST, `↳ ${FOLLOW_UP}`]);
    // The rows' Open buttons name the question, and each conversation is one row group.
    expect(await page.locator('tbody.conversation').count()).toBe(2);
    await page.screenshot({ path: join(artifacts, 'serve-history-titles.png'), fullPage: true });

    await page.locator('.history').getByLabel('Question', { exact: true }).fill('legacy REFACTOR');
    await page.locator('.history').getByRole('button', { name: 'Search' }).click();
    await expect.poll(titles).toEqual([FIRST]);
    await page.locator('.history').getByLabel('Question', { exact: true }).fill('');
    await page.locator('.history').getByRole('button', { name: 'Search' }).click();
    await expect.poll(titles).toEqual([OTHER, FIRST, `↳ ${FOLLOW_UP}`]);

    await page.getByRole('button', { name: `Open the session`, exact: false }).nth(2).click();
    const history = page.locator('.history');
    await history.locator('.history-question').waitFor();
    expect(await history.locator('.history-question').textContent()).toBe(FOLLOW_UP);
    // The detail names the session by the id POST /api/sessions returned for it (issue 30 item 13).
    expect(await history.getByText(`Session ${ids[1]}`).count()).toBe(1);
  }, 60_000);

  it('at a phone’s width (390 px) the titled, grouped list does not overflow', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Back from the session the previous test opened.
    await page.getByRole('button', { name: '← Back to the list' }).click();
    await page.locator('tr.session-row').nth(2).waitFor();
    expect(await titles()).toEqual([OTHER, FIRST, `↳ ${FOLLOW_UP}`]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  }, 30_000);

  it("the question never reaches the server's log", () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      expect(line).not.toContain(CANARY);
      expect(line).not.toContain('good name for a cat');
    }
  });
});
