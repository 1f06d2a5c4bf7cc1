import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BiasObservation } from '@council/bias-audit';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import { captureIo } from '../testing/capture-io.js';
import { serveCouncil } from './serve-council.js';
import type { CouncilServer } from './serve-council.js';
import { webAssets } from './web-assets.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const TOKEN = 'dashboard-drift-power-token-0123456789abcdef01234';
const NOW = '2026-11-05T00:00:00Z';
const START = Date.parse('2026-10-10T00:00:00Z');
const HALF_DAY = 12 * 3_600_000;
const REVIEWERS = ['r/one', 'r/two', 'r/three', 'r/four'];
const AUTHORS = ['c/a', 'c/b', 'c/c', 'c/d'];

/**
 * `sessions` sessions, one every 12 hours from 2026-10-10. Four reviewers score four answers alike (shown in an order
 * that moves on one place a session), except r/one: 0.3 above the others in even sessions and 0.3 below in odd ones.
 * No one changes. At 20 sessions r/one's step at the even split has SE √0.02 = 0.141 (each half's mean 0, sample
 * variance 10·0.09/9 = 0.1), so the change the drift test would likely miss is over 0.25 + 2.94·0.141 = 0.67 points.
 */
function observations(sessions: number): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < sessions; s++)
    for (const reviewer of REVIEWERS)
      AUTHORS.forEach((_, position) => {
        const candidate = AUTHORS[(position + s) % AUTHORS.length]!;
        out.push({
          sessionId: `s-${String(s).padStart(2, '0')}`,
          timestamp: new Date(START + s * HALF_DAY).toISOString(),
          reviewer,
          candidate,
          position,
          responseLengthChars: 800 + 100 * position,
          score: 5 + (candidate === 'c/a' ? 1 : 0) + (reviewer === 'r/one' ? (s % 2 === 0 ? 0.3 : -0.3) : 0),
          rankPosition: position,
          configVersion: '1.0.0',
          queryCategory: null,
        });
      });
  return out;
}

describe.runIf(existsSync(executablePath))(
  "the dashboard says what change a short window's drift test would likely have missed (chromium)",
  () => {
    let server: CouncilServer;
    let browser: Browser;
    let page: Page;
    let home = '';
    const problems: string[] = [];

    function context(): CommandContext {
      return {
        io: captureIo().io,
        env: {
          // No model is asked anything here: the dashboard reads the bias store under the home.
          OPENROUTER_BASE_URL: 'http://127.0.0.1:9',
          OPENROUTER_API_KEY: 'sk-or-v1-DASHBOARD-TEST',
          LLM_COUNCIL_HOME: home,
          LLM_COUNCIL_MODELS: 'test/alpha,test/beta',
          LLM_COUNCIL_CHAIRMAN: 'test/alpha',
        },
        cwd: home,
        now: () => new Date(NOW),
        out: createStyle(false),
        err: createStyle(false),
        verbose: false,
        version: '1.2.3',
      };
    }

    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), 'council-dashboard-drift-power-'));
      await createBiasStore({ path: join(home, 'bias_metrics.jsonl') }).append(
        recordsFromObservations(observations(20), { consent: 1, hashSecret: null, query: null }),
      );
      server = await serveCouncil({
        ctx: context(),
        host: '127.0.0.1',
        port: 0,
        token: TOKEN,
        demo: false,
        assets: webAssets(),
        log: () => undefined,
      });
      browser = await chromium.launch({
        executablePath,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${server.url}/#token=${TOKEN}`);
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it("shows r/one's line under the reviewers' offsets, and no one else's", async () => {
      await page.goto(`${server.url}/#/dashboard`);
      const bias = page.locator('section[aria-labelledby="dash-bias"]');
      const power = bias.getByRole('list', { name: 'Drift test power' });
      await power.waitFor({ timeout: 20_000 });
      const lines = (await power.locator('li').allTextContents()).map((l) => l.replace(/\s+/g, ' '));
      expect(lines).toHaveLength(1);
      const d =
        /^r\/one: no change found; with 20 sessions a change smaller than ±(\d\.\d\d) points would likely go unseen$/.exec(
          lines[0]!,
        );
      expect(Number(d?.[1])).toBeGreaterThan(0.66);
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
