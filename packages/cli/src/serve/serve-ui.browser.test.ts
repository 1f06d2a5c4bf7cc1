import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@council/providers/test';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { serveCouncil } from './serve-council.js';
import type { CouncilServer } from './serve-council.js';
import { webAssets } from './web-assets.js';

const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

const KEY = 'sk-or-v1-BROWSER-CANARY-KEY';
const TOKEN = 'browser-test-token-0123456789abcdef0123456789';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
// The test server's chairman writes this, 6 characters every 20 ms, then credits the three members 1/3 each.
const SYNTHESIS = 'Start with characterisation tests around the riskiest module.';
const QUESTION = 'Where should a legacy refactor begin?';
const FOLLOW_UP = 'And what comes second?';

// Every distinct text of the streaming synthesis, seen by a MutationObserver in the page (a string: this package
// compiles without the DOM library; page scripts added by the test are not subject to the page's CSP).
const SYNTHESIS_PROBE = `
  window.__synthesisTexts = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.synthesis-stream')) {
      const text = el.textContent;
      if (text && !window.__synthesisTexts.includes(text)) window.__synthesisTexts.push(text);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

describe.runIf(existsSync(executablePath))(
  'council serve in a real browser (chromium, the real server, the OpenRouter test server)',
  () => {
    let models: TestServer;
    let server: CouncilServer;
    let browser: Browser;
    let page: Page;
    let home = '';
    const problems: string[] = [];
    const requests: string[] = [];
    const posted: unknown[] = [];

    function context(env: Record<string, string> = {}): CommandContext {
      return {
        io: captureIo().io,
        env: {
          OPENROUTER_BASE_URL: models.url,
          OPENROUTER_API_KEY: KEY,
          LLM_COUNCIL_HOME: home,
          LLM_COUNCIL_MODELS: MEMBERS.join(','),
          LLM_COUNCIL_CHAIRMAN: 'test/alpha',
          LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
          ...env,
        },
        cwd: home,
        now: () => new Date(),
        out: createStyle(false),
        err: createStyle(false),
        verbose: false,
        version: '1.2.3',
      };
    }

    beforeAll(async () => {
      models = await startCouncilTestServer({
        contributors: MEMBERS,
        apiKey: KEY,
        chairman: { text: SYNTHESIS, chunkSize: 6, chunkDelayMs: 20 },
      });
      home = mkdtempSync(join(tmpdir(), 'council-serve-browser-'));
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
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (r) => {
        requests.push(r.url());
        if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/sessions') posted.push(r.postDataJSON());
      });
      await page.addInitScript(SYNTHESIS_PROBE);
      mkdirSync(artifacts, { recursive: true });
    }, 30_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await models?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    async function askAndWait(question: string, turn: number) {
      await page.locator('#question').fill(question);
      await page.locator('#question').press('Enter');
      const article = page.getByRole('article').nth(turn);
      await article.getByText('Synthesized from inputs by:').waitFor({ timeout: 30_000 });
      return article;
    }

    it('takes the token from the fragment, keeps it out of the address bar, and shows the chat form', async () => {
      await page.goto(`${server.url}/#token=${TOKEN}`);
      await page.getByLabel('Your question').waitFor();
      expect(page.url()).toBe(`${server.url}/#/chat`);
      expect(await page.evaluate<string | null>(`sessionStorage.getItem('council-token')`)).toBe(TOKEN);
      // The configured council is pre-selected in the member picker.
      await page.getByText('Council options').click();
      for (const m of MEMBERS) expect(await page.getByRole('checkbox', { name: m }).isChecked(), m).toBe(true);
    });

    it('asks: answers appear in tabs, the synthesis streams, the attribution badges appear', async () => {
      const article = await askAndWait(QUESTION, 0);
      await expect.poll(() => article.getByRole('tab').allTextContents()).toEqual(MEMBERS);
      // Each answer is the test server's text for its model.
      await article.getByRole('tab', { name: 'test/beta' }).click();
      expect(await article.getByRole('tabpanel').textContent()).toContain(
        'Answer from test/beta: write characterisation tests first.',
      );
      // The synthesis arrived in pieces: at least two partial texts were on the page before the whole.
      const partials = (await page.evaluate<string[]>('window.__synthesisTexts')).filter(
        (t) => SYNTHESIS.startsWith(t) && t !== SYNTHESIS && t.length > 0,
      );
      expect(partials.length).toBeGreaterThanOrEqual(2);
      // Consensus mode: the synthesis and one badge per contributor, each 1/3 → 33%.
      expect(await article.locator('.answer-text').textContent()).toBe(SYNTHESIS);
      expect(await article.getByRole('list', { name: 'Contributors' }).getByRole('listitem').allTextContents()).toEqual(
        ['test/alpha 33%', 'test/beta 33%', 'test/gamma 33%'],
      );
      // The reviews are de-anonymised once the session is over: "Response A: test/…".
      await article.getByText('Stage 2 · reviews (3)').click();
      expect(await article.locator('.ranking li').first().textContent()).toMatch(
        /^Response [A-C]: test\/(alpha|beta|gamma)$/,
      );
      await page.screenshot({ path: join(artifacts, 'serve-chat.png'), fullPage: true });
    }, 60_000);

    it('toggling the mode changes the displayed answer to the winner’s own, with a Winner badge, and back', async () => {
      const article = page.getByRole('article').first();
      await article.getByRole('button', { name: 'Voting' }).click();
      expect(await article.getByRole('button', { name: 'Voting' }).getAttribute('aria-pressed')).toBe('true');
      const badge = (await article.locator('.badge-winner').textContent()) ?? '';
      const winner = /^Winner: (test\/\w+)$/.exec(badge)?.[1];
      expect(MEMBERS).toContain(winner);
      const shown = (await article.locator('.answer-text').textContent()) ?? '';
      expect(shown).not.toBe(SYNTHESIS);
      expect(shown.startsWith(`Answer from ${winner}: write characterisation tests first.`)).toBe(true);
      expect(await article.getByText('Synthesized from inputs by:').count()).toBe(0);
      await article.getByRole('button', { name: 'Consensus' }).click();
      expect(await article.locator('.answer-text').textContent()).toBe(SYNTHESIS);
    });

    it('a follow-up continues the conversation: it names the first session, and the thread shows both turns', async () => {
      const sessions = (await (
        await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as { sessions: { id: string }[] };
      const first = sessions.sessions[0]?.id;
      expect(first).toBeTruthy();
      await page.getByLabel('Follow-up question').waitFor();
      await askAndWait(FOLLOW_UP, 1);
      expect(posted).toHaveLength(2);
      expect(posted[0]).not.toHaveProperty('continueFrom');
      expect(posted[1]).toMatchObject({ query: FOLLOW_UP, continueFrom: first });
      const turns = page.getByRole('article');
      expect(await turns.count()).toBe(2);
      expect(await turns.nth(0).locator('.question').textContent()).toContain(QUESTION);
      expect(await turns.nth(1).locator('.question').textContent()).toContain(FOLLOW_UP);
      const after = (await (
        await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as { sessions: { id: string; conversation: string | null }[] };
      expect(after.sessions).toHaveLength(2);
      expect(after.sessions[0]?.conversation).toBe(first);
    }, 60_000);

    it('history lists both sessions and opens one with its answers and the toggle', async () => {
      await page.goto(`${server.url}/#/history`);
      const rows = page.locator('tr.session-row');
      await expect.poll(() => rows.count()).toBe(2);
      await page.screenshot({ path: join(artifacts, 'serve-history.png'), fullPage: true });
      await rows.first().getByRole('button', { name: /Open/ }).click();
      // The chat stays in the page (hidden) to keep its conversation: look inside the history only.
      const history = page.locator('.history');
      await history.getByRole('tab', { name: 'test/alpha' }).waitFor();
      expect(await history.getByRole('tab').allTextContents()).toEqual(MEMBERS);
      expect(await history.locator('.answer-text').textContent()).toBe(SYNTHESIS);
      await history.getByRole('button', { name: 'Voting' }).click();
      expect(await history.locator('.badge-winner').textContent()).toMatch(/^Winner: test\//);
    }, 30_000);

    it('the dashboard shows the two sessions in the leaderboard and the heatmap', async () => {
      await page.goto(`${server.url}/#/dashboard`);
      const leaderboard = page.locator('table.leaderboard');
      await leaderboard.waitFor({ timeout: 10_000 });
      const rows = await leaderboard.locator('tbody tr').allTextContents();
      expect(rows).toHaveLength(3);
      for (const m of MEMBERS) expect(rows.some((r) => r.includes(m))).toBe(true);
      // Sessions column: each member sat in both sessions.
      expect(await leaderboard.locator('tbody tr td:last-child').allTextContents()).toEqual(['2', '2', '2']);
      // The heatmap: each member got 1/3 of both syntheses (the test server credits the three equally), so its
      // influence share is 0.33 in the one strategy the sessions ran (balanced, the default).
      const heatmap = page.locator('table.heatmap');
      await heatmap.waitFor({ timeout: 10_000 });
      expect(await heatmap.locator('tbody tr').count()).toBe(MEMBERS.length);
      for (const m of MEMBERS) {
        const cell = heatmap
          .getByRole('row', { name: new RegExp(m) })
          .getByRole('cell', { name: new RegExp(`^${m}: influence share 0\\.33`) });
        expect(await cell.textContent(), m).toBe('0.33');
      }
      // WCAG's contrast ratio of every heatmap cell's text on its colour is at least 4.5:1.
      const ratios = await page.evaluate<number[]>(`(() => {
      const luminance = (css) => {
        const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => { const c = Number(v) / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      return [...document.querySelectorAll('table.heatmap td')].map((td) => {
        const style = getComputedStyle(td);
        const [hi, lo] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
        return (hi + 0.05) / (lo + 0.05);
      });
    })()`);
      expect(ratios.length).toBeGreaterThan(0);
      expect(Math.min(...ratios)).toBeGreaterThanOrEqual(4.5);
      await page.screenshot({ path: join(artifacts, 'serve-dashboard.png'), fullPage: true });
    }, 30_000);

    it('is keyboard-usable and labelled: arrow keys move between answer tabs; every control has a name', async () => {
      await page.goto(`${server.url}/#/chat`);
      const first = page.getByRole('article').first();
      await first.getByRole('tab', { name: 'test/alpha' }).click();
      await page.keyboard.press('ArrowRight');
      expect(await first.getByRole('tab', { name: 'test/beta' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toContain('test/beta');
      const unlabelled = await page.evaluate<string[]>(
        `[...document.querySelectorAll('input, select, textarea')].filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map((e) => e.outerHTML)`,
      );
      expect(unlabelled).toEqual([]);
      expect(await page.locator('[role=status][aria-live=polite]').count()).toBe(1);
    });

    it('fits a phone’s width (390 px) without sideways scrolling', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.url}/#/chat`);
      await page.getByRole('article').first().waitFor();
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(artifacts, 'serve-chat-phone.png'), fullPage: true });
    });

    it('where the configuration says mode_toggle: false, neither the answer nor the chat form offers the Voting/Consensus choice', async () => {
      // The same home under the organization acme, whose file fixes the mode (design doc §8.1).
      mkdirSync(join(home, 'organizations', 'acme', 'config'), { recursive: true });
      writeFileSync(join(home, 'organizations', 'acme', 'config', 'system-prompts.yaml'), 'mode_toggle: false\n');
      const fixed = await serveCouncil({
        ctx: context({ LLM_COUNCIL_ORG: 'acme' }),
        host: '127.0.0.1',
        port: 0,
        token: TOKEN,
        demo: false,
        assets: webAssets(),
        log: () => undefined,
      });
      const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await other.goto(`${fixed.url}/#token=${TOKEN}`);
        await other.getByText('Council options').click();
        await other.getByLabel('Strategy').waitFor();
        expect(await other.getByLabel(/^Mode/).count()).toBe(0);
        await other.goto(`${fixed.url}/#/history`);
        await other.locator('tr.session-row').first().getByRole('button', { name: /Open/ }).click();
        const history = other.locator('.history');
        await history.getByRole('tab', { name: 'test/alpha' }).waitFor();
        expect(await history.locator('.answer-text').textContent()).toBe(SYNTHESIS);
        expect(await history.getByText('Synthesized from inputs by:').count()).toBe(1);
        expect(await history.getByRole('group', { name: 'Answer mode' }).count()).toBe(0);
        expect(await history.getByRole('button', { name: 'Voting' }).count()).toBe(0);
      } finally {
        await other.close();
        await fixed.close();
      }
    }, 30_000);

    it('logged no console error (no CSP violation) and requested nothing but its own server', () => {
      expect(problems).toEqual([]);
      expect(requests.filter((r) => !r.startsWith(`${server.url}/`))).toEqual([]);
    });
  },
);
