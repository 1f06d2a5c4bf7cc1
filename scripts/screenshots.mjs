// `pnpm screenshots` (after `pnpm build` or `npm start`): the READMEs' pictures, taken from the real pages.
//
// Builds nothing: it runs the bundled CLI, apps/cli/dist/council.js, as a user would. `council demo` writes the demo's
// HTML bias report; `council serve --demo` (127.0.0.1, a fresh home, which it seeds with the demo's 41 simulated
// sessions) serves the page, where Debian's chromium (or CHROMIUM_PATH) asks one question and photographs the chat,
// the history and the dashboard at a laptop's width (1280 px), and the chat and the dashboard at a phone's (390 px).
// Writes docs/screenshots/serve-{chat,history,dashboard,chat-phone,dashboard-phone}.png and
// packages/cli/docs/bias-report.png.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const council = join(root, 'apps/cli/dist/council.js');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const shots = join(root, 'docs/screenshots');
const reportShot = join(root, 'packages/cli/docs/bias-report.png');
const QUESTION = 'We have a 20-year-old billing module nobody dares to touch. Where should the refactor begin?';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

function fail(message) {
  console.error(`pnpm screenshots: ${message}`);
  process.exit(1);
}

if (!existsSync(council))
  fail(`${council} is missing: run \`pnpm build\` (or \`npm start\`) first; this script builds nothing.`);
if (!existsSync(chromiumPath))
  fail(`no chromium at ${chromiumPath}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
// playwright-core is @council/cli's development dependency (its browser tests'); the root has none of its own.
const { chromium } = createRequire(join(root, 'packages/cli/package.json'))('playwright-core');

const work = mkdtempSync(join(tmpdir(), 'council-screenshots-'));
// The children see no key, no LLM_COUNCIL_* of the caller's and no colour: the pictures do not depend on who runs this.
const env = { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1', HOME: work };

/** Starts `council serve --demo` on a fresh home; resolves with its address (token in the fragment) and the process. */
function startServe() {
  const token = randomBytes(24).toString('hex');
  const tokenFile = join(work, 'serve-token');
  writeFileSync(tokenFile, token, { mode: 0o600 });
  const child = spawn(
    process.execPath,
    [council, 'serve', '--demo', '--home', join(work, 'serve'), '--host', '127.0.0.1', '--token-file', tokenFile],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let said = '';
  return new Promise((resolve, reject) => {
    const listen = (chunk) => {
      said += chunk;
      const address = /Council is serving at (http:\/\/127\.0\.0\.1:\d+)\//.exec(said);
      if (address) resolve({ child, url: `${address[1]}/#token=${token}` });
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.on('exit', (code) => reject(new Error(`council serve --demo exited (${code}) before serving:\n${said}`)));
  });
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
}

let served;
const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  mkdirSync(shots, { recursive: true });

  // 1. The demo's HTML bias report, as `council demo` writes it (no script in it: JavaScript off).
  const demoHome = join(work, 'demo');
  const demo = spawnSync(process.execPath, [council, 'demo', '--home', demoHome], { env, encoding: 'utf8' });
  if (demo.status !== 0) throw new Error(`council demo exited ${demo.status}:\n${demo.stderr}`);
  const report = await browser.newPage({ viewport: DESKTOP, javaScriptEnabled: false });
  await report.goto(pathToFileURL(join(demoHome, 'bias-report.html')).href, { waitUntil: 'load' });
  await report.locator('svg.chart').first().waitFor();
  await report.screenshot({ path: reportShot, fullPage: true });
  await report.close();

  // 2. council serve --demo: one question asked in the page, then the history and the dashboard.
  served = await startServe();
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(served.url);
  await page.locator('#question').fill(QUESTION);
  await page.locator('#question').press('Enter');
  await page.getByText('Synthesized from inputs by:').waitFor({ timeout: 120_000 });
  await page.screenshot({ path: join(shots, 'serve-chat.png'), fullPage: true });
  const base = new URL(page.url());
  await page.goto(new URL('#/history', base).href);
  await page.locator('tr.session-row').first().waitFor();
  await page.screenshot({ path: join(shots, 'serve-history.png') });
  await page.goto(new URL('#/dashboard', base).href);
  // The seeded sessions fill every section: wait for each, so a fallback ("no data yet") is never photographed.
  await page.locator('table.leaderboard tbody tr').first().waitFor();
  await page.locator('table.heatmap td').first().waitFor();
  await page.locator('section[aria-labelledby="dash-bias"] table').first().waitFor();
  await page.screenshot({ path: join(shots, 'serve-dashboard.png'), fullPage: true });

  // 3. A phone's width: the chat (the answer just asked) and the top of the dashboard.
  await page.setViewportSize(PHONE);
  await page.goto(new URL('#/chat', base).href);
  await page.getByRole('article').first().waitFor();
  await page.screenshot({ path: join(shots, 'serve-chat-phone.png') });
  await page.goto(new URL('#/dashboard', base).href);
  await page.locator('table.leaderboard tbody tr').first().waitFor();
  await page.locator('table.heatmap td').first().waitFor();
  await page.screenshot({ path: join(shots, 'serve-dashboard-phone.png') });
  console.log(
    `Wrote ${reportShot} and serve-chat.png, serve-history.png, serve-dashboard.png, serve-chat-phone.png, serve-dashboard-phone.png to ${shots}`,
  );
} finally {
  await browser.close();
  if (served) await stop(served.child);
  rmSync(work, { recursive: true, force: true });
}
