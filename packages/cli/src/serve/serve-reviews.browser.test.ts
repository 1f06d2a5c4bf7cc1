import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
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

const KEY = 'sk-or-v1-REVIEWS-CANARY-KEY';
const TOKEN = 'reviews-test-token-0123456789abcdef0123456789';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
// The chairman's synthesis as a real model writes it: Markdown (bold, a list, a table, a code block), and HTML that
// must stay text (a script and an image whose onerror would set window.__xss).
const SYNTHESIS = [
  'Start with **characterisation tests** around the riskiest module.',
  '',
  '1. Pin the behaviour',
  '2. Refactor in *small* steps',
  '',
  '| Step | Why |',
  '|---|---|',
  '| tests | safety |',
  '',
  '```sh',
  'npm test -- --watch',
  '```',
  '',
  'Never run <script>window.__xss = 1</script> or <img src=x onerror="window.__xss = 2">.',
].join('\n');

type Row = { candidate: string; bordaScore: number; bordaPoints: number; voteCount: number; winCount: number };

describe.runIf(existsSync(executablePath))(
  'council serve in a real browser: the reviews, the session leaderboard and Markdown',
  () => {
    let models: TestServer;
    let server: CouncilServer;
    let browser: Browser;
    let page: Page;
    let article: Locator;
    let home = '';
    const problems: string[] = [];

    function context(): CommandContext {
      return {
        io: captureIo().io,
        env: {
          OPENROUTER_BASE_URL: models.url,
          OPENROUTER_API_KEY: KEY,
          LLM_COUNCIL_HOME: home,
          LLM_COUNCIL_MODELS: MEMBERS.join(','),
          LLM_COUNCIL_CHAIRMAN: 'test/alpha',
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
      models = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY, chairman: { text: SYNTHESIS } });
      home = mkdtempSync(join(tmpdir(), 'council-serve-reviews-'));
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
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync', '--no-first-run'],
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      mkdirSync(artifacts, { recursive: true });
      await page.goto(`${server.url}/#token=${TOKEN}`);
      await page.locator('#question').fill('Where should a legacy refactor begin?');
      await page.locator('#question').press('Enter');
      article = page.getByRole('article').first();
      await article.getByText('Synthesized from inputs by:').waitFor({ timeout: 30_000 });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await models?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it('shows each reviewer’s evaluation as its own block: critique text, a score per answer, its ranking by member', async () => {
      await article.getByText('Stage 2 · reviews (3)').click();
      const reviews = article.locator('li.review');
      expect(await reviews.count()).toBe(3);
      expect(await article.locator('.review-by').allTextContents()).toEqual(MEMBERS.map((m) => `Review by ${m}`));
      for (const reviewer of MEMBERS) {
        const review = article.getByRole('listitem', { name: `Review by ${reviewer}` });
        // The test server's reviewer ranks the labels in the order shown and scores them 9, 7, 5 (9 − 2 × place),
        // each with the critique "clear steps" / "no examples".
        const heads = await review.locator('.evaluation-head').allTextContents();
        expect(heads, reviewer).toHaveLength(3);
        expect(heads.map((h) => /: (\d+)\/10$/.exec(h)?.[1])).toEqual(['9', '7', '5']);
        // Named after the session, each with the label it was shown under: "test/beta (Response A): 9/10".
        for (const [i, head] of heads.entries())
          expect(head).toMatch(
            new RegExp(`^test/(alpha|beta|gamma) \\(Response ${'ABC'[i]!}(, its own)?\\): \\d+/10$`),
          );
        expect(new Set(heads.map((h) => h.split(' ')[0])).size).toBe(3);
        expect(await review.locator('.critique dt').allTextContents()).toEqual([
          'Strengths',
          'Weaknesses',
          'Strengths',
          'Weaknesses',
          'Strengths',
          'Weaknesses',
        ]);
        expect(await review.locator('.critique dd').allTextContents()).toEqual([
          'clear steps',
          'no examples',
          'clear steps',
          'no examples',
          'clear steps',
          'no examples',
        ]);
        // Its ranking: the members behind "Response A, B, C", in the order of its scores.
        const ranking = await review.locator('.ranking li').allTextContents();
        expect(ranking.map((r) => r.split(': ')[0])).toEqual(['Response A', 'Response B', 'Response C']);
        expect(ranking.map((r) => r.split(': ')[1])).toEqual(heads.map((h) => h.split(' ')[0]));
        // Its reply as written, folded away, rendered as Markdown: no raw ** or ``` left.
        const reply = review.locator('details.review-text');
        expect(await reply.count()).toBe(1);
        const replyText = (await reply.locator('.markdown').textContent()) ?? '';
        expect(replyText).toContain('Response A');
        expect(replyText).not.toContain('**');
        expect(replyText).not.toContain('```');
      }
      await page.screenshot({ path: join(artifacts, 'serve-reviews.png'), fullPage: true });
    });

    it('shows the session’s leaderboard: Borda score, points, votes and wins per member', async () => {
      const table = article.locator('table.session-leaderboard');
      await table.waitFor();
      expect(await table.locator('thead th').allTextContents()).toEqual([
        'Rank',
        'Member',
        'Borda score',
        'Points',
        'Votes',
        'Wins',
      ]);
      const rows: string[][] = [];
      for (const tr of await table.locator('tbody tr').all()) rows.push(await tr.locator('td, th').allTextContents());
      expect(rows.map((r) => r[1]).sort()).toEqual(MEMBERS);
      // The same figures as the session the server stored, as the CLI prints them (3 and 2 decimals).
      const session = (await (
        await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as { sessions: { id: string }[] };
      const stored = (await (
        await fetch(`${server.url}/api/sessions/${session.sessions[0]!.id}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).json()) as { session: { leaderboard: Row[] } };
      for (const row of rows) {
        const entry = stored.session.leaderboard.find((e) => e.candidate === row[1])!;
        expect(row.slice(2)).toEqual([
          entry.bordaScore.toFixed(3),
          entry.bordaPoints.toFixed(2),
          String(entry.voteCount),
          String(entry.winCount),
        ]);
        // Self-votes are excluded (the default), so each of the three ballots ranks the two other answers: first is
        // 1 point, last 0, and the normalised score is points / (2 − 1), the points themselves. Each member is
        // ranked by the two other reviewers.
        expect(row[2]).toBe(Number(row[3]).toFixed(3));
        expect(row[4]).toBe('2');
      }
      // Every ballot ranks someone first: the wins add up to the three ballots, the mean points times the votes to
      // one point per ballot.
      expect(rows.reduce((sum, r) => sum + Number(r[5]), 0)).toBe(3);
      expect(rows.reduce((sum, r) => sum + Number(r[3]) * Number(r[4]), 0)).toBeCloseTo(3, 1);
    });

    it('renders the synthesis’ Markdown: bold, list, table and code as elements, no ** left; HTML stays text', async () => {
      const answer = article.locator('.answer-text');
      expect(await answer.locator('strong').first().textContent()).toBe('characterisation tests');
      expect(await answer.locator('em').first().textContent()).toBe('small');
      expect(await answer.locator('ol li').allTextContents()).toEqual(['Pin the behaviour', 'Refactor in small steps']);
      expect(await answer.locator('table th').allTextContents()).toEqual(['Step', 'Why']);
      expect(await answer.locator('pre code').textContent()).toBe('npm test -- --watch');
      const text = (await answer.textContent()) ?? '';
      expect(text).not.toContain('**');
      // The script and the image are shown as the text they are; neither became an element, neither ran.
      expect(text).toContain('<script>window.__xss = 1</script>');
      expect(text).toContain('<img src=x onerror="window.__xss = 2">');
      expect(await answer.locator('script, img').count()).toBe(0);
      expect(await page.evaluate<unknown>('window.__xss')).toBeUndefined();
      expect(problems).toEqual([]);
    });

    it('fits a phone: at 390 px the review blocks, the leaderboard and the Markdown table do not widen the page', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      const widths = await page.evaluate<{ page: number; reviews: number; board: number; answer: number }>(`({
        page: document.documentElement.scrollWidth,
        reviews: Math.max(...[...document.querySelectorAll('li.review')].map((e) => e.getBoundingClientRect().right)),
        board: document.querySelector('table.session-leaderboard').parentElement.getBoundingClientRect().right,
        answer: document.querySelector('.answer-text').getBoundingClientRect().right,
      })`);
      expect(widths.page).toBeLessThanOrEqual(390);
      expect(widths.reviews).toBeLessThanOrEqual(390);
      expect(widths.board).toBeLessThanOrEqual(390);
      expect(widths.answer).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(artifacts, 'serve-reviews-phone.png'), fullPage: true });
    });
  },
);
