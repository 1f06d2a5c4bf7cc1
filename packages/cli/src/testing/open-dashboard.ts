import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import type { BiasObservation } from '@council/bias-audit';
import { createBiasStore, recordsFromObservations } from '@council/bias-store';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import { serveCouncil } from '../serve/serve-council.js';
import { webAssets } from '../serve/web-assets.js';
import { captureIo } from './capture-io.js';

/** Debian's chromium, or `CHROMIUM_PATH`: the browser tests run where it exists. */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** A served home's dashboard in chromium: its page, the script errors seen on it, and how to close it all. */
export interface OpenDashboard {
  page: Page;
  url: string;
  /** Uncaught script errors on the page (console lines are not counted: a missing history answers 404). */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Serves a temporary home whose bias store holds `observations` (no model is asked anything: the dashboard reads the
 * store) on 127.0.0.1, and opens its page in headless chromium at 1280 × 900, signed in with `token`. `prepare` may
 * write more of the home first (its history and contribution records, for the leaderboard and the heatmap).
 */
export async function openDashboard(spec: {
  observations: BiasObservation[];
  token: string;
  now: string;
  prepare?: (home: string) => void;
}): Promise<OpenDashboard> {
  const home = mkdtempSync(join(tmpdir(), 'council-dashboard-'));
  await createBiasStore({ path: join(home, 'bias_metrics.jsonl') }).append(
    recordsFromObservations(spec.observations, { consent: 1, hashSecret: null, query: null }),
  );
  spec.prepare?.(home);
  const ctx: CommandContext = {
    io: captureIo().io,
    env: {
      OPENROUTER_BASE_URL: 'http://127.0.0.1:9',
      OPENROUTER_API_KEY: 'sk-or-v1-DASHBOARD-TEST',
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_MODELS: 'test/alpha,test/beta',
      LLM_COUNCIL_CHAIRMAN: 'test/alpha',
    },
    cwd: home,
    now: () => new Date(spec.now),
    out: createStyle(false),
    err: createStyle(false),
    verbose: false,
    version: '1.2.3',
  };
  const server = await serveCouncil({
    ctx,
    host: '127.0.0.1',
    port: 0,
    token: spec.token,
    demo: false,
    assets: webAssets(),
    log: () => undefined,
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/#token=${spec.token}`);
  return {
    page,
    url: server.url,
    problems,
    async close() {
      await browser.close();
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
