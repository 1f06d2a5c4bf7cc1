import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';
import { serveCouncil } from './serve-council.js';
import type { CouncilServer } from './serve-council.js';
import { webAssets } from './web-assets.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const TOKEN = 'no-council-test-token-0123456789abcdef012345';
const SIM = ['simulated:ada', 'simulated:basil', 'simulated:cleo'];

function context(home: string): CommandContext {
  return {
    io: captureIo().io,
    // No LLM_COUNCIL_MODELS and no config.yaml: a newcomer who has only run `council ask --models …`.
    env: { LLM_COUNCIL_HOME: home },
    cwd: home,
    now: () => new Date(),
    out: createStyle(false),
    err: createStyle(false),
    verbose: false,
    version: '1.2.3',
  };
}

async function serve(home: string): Promise<CouncilServer> {
  return serveCouncil({
    ctx: context(home),
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: webAssets(),
    log: () => undefined,
  });
}

// The first hour: `council ask "…" --models a,b,c`, then `council serve`. With no configured council the page had no
// member to tick and no box to type one in, and asking answered "give two or more model ids … in members".
describe.runIf(existsSync(executablePath))(
  'council serve with no configured council (issue 30, the first hour)',
  () => {
    let browser: Browser;
    const homes: string[] = [];
    const servers: CouncilServer[] = [];

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
      for (const s of servers) await s.close();
      for (const h of homes) rmSync(h, { recursive: true, force: true });
    });

    it('offers the members of the sessions asked before, says so, and asks with the ones ticked (at 390 px)', async () => {
      const home = mkdtempSync(join(tmpdir(), 'council-no-council-'));
      homes.push(home);
      const asked = captureIo();
      const code = await runCli(['ask', 'Which queue should we use?', '--models', SIM.join(',')], {
        version: '1.2.3',
        io: asked.io,
        env: { LLM_COUNCIL_HOME: home },
        cwd: home,
      });
      expect(code, asked.err()).toBe(0);
      const server = await serve(home);
      servers.push(server);

      const page = await browser.newPage({ viewport: PHONE });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/#token=${TOKEN}`);
      const note = page.locator('#no-council');
      await note.waitFor();
      expect(await note.textContent()).toBe(
        'No council is configured: tick two or more members under Council options (the models of your recent sessions are listed), or add members: [a, b, c] to config.yaml.',
      );
      // The options are open, and list the three members of the session asked before.
      const boxes = page.locator('input[name="member"]');
      await boxes.first().waitFor();
      expect(await boxes.evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value))).toEqual(
        SIM,
      );
      for (const id of SIM) await page.locator(`input[name="member"][value="${id}"]`).check();
      await expect.poll(() => note.count()).toBe(0);

      await page.locator('#question').fill('And for a small team?');
      await page.locator('#question').press('Enter');
      const article = page.getByRole('article').first();
      await article.getByText('Synthesized from inputs by:').waitFor({ timeout: 30_000 });
      expect(await page.locator('p.error').count()).toBe(0);
      for (const id of SIM) expect(await article.textContent()).toContain(id);
      // The session's line counts its tokens as the terminal does, with a thousands separator (three simulated members
      // use several thousand).
      expect(await article.textContent()).toMatch(/Session [0-9a-f-]{36} · balanced · \d{1,3}(,\d{3})+ tokens/);
      const fit = await measurePhoneOverflow(page);
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.viewport);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);

    it('with no session yet: says to add members to config.yaml', async () => {
      const home = mkdtempSync(join(tmpdir(), 'council-no-council-empty-'));
      homes.push(home);
      const server = await serve(home);
      servers.push(server);
      const page = await browser.newPage({ viewport: PHONE });
      await page.goto(`${server.url}/#token=${TOKEN}`);
      const note = page.locator('#no-council');
      await note.waitFor();
      expect(await note.textContent()).toBe(
        'No council is configured: add members: [a, b, c] to config.yaml in your Council home (council config init writes a commented one), then reload this page.',
      );
      await page.close();
    }, 30_000);
  },
);
