// Issue 16's targets for `council serve`'s web UI: its JavaScript ≤ 60 KB min+gzip, and the chat page's first
// render ≤ 300 ms in headless chromium here (median of 15 loads; navigation start → the question form in the page).
// Runs `council serve`'s server in this process (the demo's simulated members, 127.0.0.1) and Debian's chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineBenchSuite, median } from '@council/bench';
import { chromium } from 'playwright-core';
import type { CouncilServer } from '../src/serve/serve-council.js';
import { startDemoServer } from './serve-demo-server.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const LOADS = 15;
// Records when the chat's question form first exists and the next frame is drawn; performance.now() counts from
// the navigation's start. A string: this package compiles without the DOM library.
const FIRST_RENDER_PROBE = `
  window.__councilFirstRender = new Promise((resolve) => {
    const seen = () => {
      if (!document.querySelector('form.ask textarea')) return false;
      requestAnimationFrame(() => resolve(performance.now()));
      return true;
    };
    const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
    observer.observe(document, { childList: true, subtree: true });
  });
`;

let server: CouncilServer | undefined;
let home = '';

export const suite = defineBenchSuite({
  name: 'cli serve-ui',
  setup: () => {
    home = mkdtempSync(join(tmpdir(), 'council-bench-serve-ui-'));
  },
  values: async () => {
    const served = await startDemoServer({ home, demo: false });
    server = served.server;
    const origin = new URL(served.url).origin;
    const html = await (await fetch(`${origin}/`)).text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
    if (!script) throw new Error('The page names no script.');
    const js = Buffer.from(await (await fetch(`${origin}${script}`)).arrayBuffer());

    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const renders: number[] = [];
    try {
      for (let i = 0; i < LOADS; i++) {
        // A fresh context each time: nothing cached, as on a first visit.
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.addInitScript(FIRST_RENDER_PROBE);
        await page.goto(served.url);
        await page.locator('form.ask textarea').waitFor({ state: 'visible' });
        renders.push(await page.evaluate<number>('window.__councilFirstRender'));
        await context.close();
      }
    } finally {
      await browser.close();
    }
    return [
      { name: 'web UI JavaScript, min+gzip', value: gzipSync(js).length / 1024, unit: 'KB', budget: 60 },
      { name: 'web UI JavaScript, min', value: js.length / 1024, unit: 'KB' },
      { name: `chat page first render (median of ${LOADS} loads)`, value: median(renders), unit: 'ms', budget: 300 },
    ];
  },
  teardown: async () => {
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  },
});
