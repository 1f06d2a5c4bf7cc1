import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@council/providers/test';
import { createStyle } from '../create-style.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { serveCouncil } from './serve-council.js';
import type { CouncilServer } from './serve-council.js';
import { webAssets } from './web-assets.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const KEY = 'sk-or-v1-STAGE-PROGRESS-KEY';
const TOKEN = 'stage-progress-test-token-0123456789abcdef01';
// Three members answer at once; the test server's `test/hang` never does.
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma', 'test/hang'];

// Issue 30 item 14: "the web progress says 'Answers 4 running' after three answered". Through the real page: while the
// fourth member is still out, stage 1 counts the three answers done and the one still running.
describe.runIf(existsSync(executablePath))('council serve: the stage progress while a member is still out', () => {
  let models: TestServer;
  let server: CouncilServer;
  let browser: Browser;
  let home = '';

  beforeAll(async () => {
    models = await startCouncilTestServer({ contributors: MEMBERS.slice(0, 3), apiKey: KEY });
    home = mkdtempSync(join(tmpdir(), 'council-stage-progress-'));
    server = await serveCouncil({
      ctx: {
        io: captureIo().io,
        env: {
          OPENROUTER_BASE_URL: models.url,
          OPENROUTER_API_KEY: KEY,
          LLM_COUNCIL_HOME: home,
          LLM_COUNCIL_MODELS: MEMBERS.join(','),
        },
        cwd: home,
        now: () => new Date(),
        out: createStyle(false),
        err: createStyle(false),
        verbose: false,
        version: '1.2.3',
      },
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: webAssets(),
      log: () => undefined,
    });
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await models?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('shows "3 of 4 done, 1 running" for the answers, never "4 running", then cancels', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/#token=${TOKEN}`);
    await page.locator('#question').fill('Which queue should we use?');
    await page.locator('#question').press('Enter');
    const answers = page.locator('.stage-step').first();
    await answers.getByText('3 of 4 done, 1 running').waitFor({ timeout: 30_000 });
    expect(await answers.textContent()).toBe('1. Answers 3 of 4 done, 1 running');
    expect(await page.locator('p.status').textContent()).toBe('Stage 1 of 3: answers…');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('p.status').getByText('Cancelled.').waitFor({ timeout: 30_000 });
    await page.close();
  }, 60_000);
});
