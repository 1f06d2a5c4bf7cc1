// `pnpm --filter @council/cli screenshots` (after `pnpm build`): the README's pictures of `council serve`.
// `council demo` fills a fresh home with 41 simulated sessions, then `council serve`'s server (in this process,
// the demo's simulated members) serves it on 127.0.0.1 and Debian's chromium asks one question and photographs the chat,
// history and dashboard at a laptop's width (1280 px) and the chat at a phone's (390 px) into docs/screenshots/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDemoServer } from './serve-demo-server.js';

const out = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const QUESTION = 'We have a 20-year-old billing module nobody dares to touch. Where should the refactor begin?';

const home = mkdtempSync(join(tmpdir(), 'council-screenshots-'));
const served = await startDemoServer({ home, demo: true });
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  mkdirSync(out, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(served.url);
  await page.locator('#question').fill(QUESTION);
  await page.locator('#question').press('Enter');
  await page.getByText('Synthesized from inputs by:').waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(out, 'serve-chat.png'), fullPage: true });
  const base = new URL(page.url());
  await page.goto(new URL('#/history', base).href);
  await page.locator('tr.session-row').first().waitFor();
  await page.screenshot({ path: join(out, 'serve-history.png') });
  await page.goto(new URL('#/dashboard', base).href);
  await page.locator('table.leaderboard').waitFor();
  // GET /api/contributions is served: the heatmap must be there, not the "no contribution data" fallback.
  await page.locator('table.heatmap td').first().waitFor({ timeout: 10_000 });
  await page.locator('.bias table').first().waitFor();
  await page.screenshot({ path: join(out, 'serve-dashboard.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL('#/chat', base).href);
  await page.getByRole('article').first().waitFor();
  await page.screenshot({ path: join(out, 'serve-chat-phone.png') });
  console.log(`Wrote serve-chat.png, serve-history.png, serve-dashboard.png and serve-chat-phone.png to ${out}`);
} finally {
  await browser.close();
  await served.server.close();
  rmSync(home, { recursive: true, force: true });
}
