import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BiasObservation } from '@council/bias-audit';
import { appendJsonLines } from '@council/bias-store';
import { historyEntry, writeHistory } from '../testing/history-fixture.js';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const TOKEN = 'dashboard-phone-token-0123456789abcdef0123456789';
const NOW = '2026-11-05T00:00:00Z';
const START = Date.parse('2026-10-10T00:00:00Z');
const HALF_DAY = 12 * 3_600_000;
const SESSIONS = 40;
/** Seven members, each id as long as the ones OpenRouter hands out, which no phone fits on one line. */
const MEMBERS = [
  'openrouter/anthropic/claude-3.7-sonnet:thinking',
  'openrouter/google/gemini-2.5-pro-preview-05-06',
  'openrouter/meta-llama/llama-3.3-70b-instruct:free',
  'openrouter/mistralai/mistral-large-2411',
  'openrouter/deepseek/deepseek-r1-distill-qwen-32b',
  'openrouter/qwen/qwen-2.5-72b-instruct',
  'openrouter/nousresearch/hermes-3-llama-3.1-405b:extended',
];

function timestamp(session: number): string {
  return new Date(START + session * HALF_DAY).toISOString();
}

/**
 * Every section of the bias report filled: the seven members review each other in 40 sessions, each reviewer in its
 * own order (so positions are estimable), the first position half a point up; the second member is harsh (2 points
 * down: a flag), the third one point harsher from session 20 on (drift: two periods), the fourth favours the fifth's
 * answers (an affinity); a small deterministic wobble keeps every figure's interval open.
 */
function observations(): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < SESSIONS; s++)
    MEMBERS.forEach((reviewer, r) =>
      MEMBERS.forEach((candidate, c) => {
        const position = (c + s + r) % MEMBERS.length;
        const own = r === 1 ? -2 : r === 2 && s >= 20 ? -1 : r === 3 && c === 4 ? 1.5 : 0;
        out.push({
          sessionId: `s-${String(s).padStart(2, '0')}`,
          timestamp: timestamp(s),
          reviewer,
          candidate,
          position,
          responseLengthChars: 700 + 90 * c,
          score: 5 + (c === 0 ? 1 : 0) + (position === 0 ? 0.5 : 0) + own + (((s * 7 + r * 3 + c) % 5) - 2) * 0.1,
          rankPosition: position,
          configVersion: '1.0.0',
          queryCategory: null,
        });
      }),
    );
  return out;
}

/** The history (the leaderboard) and contribution records (the heatmap, under two strategies) of the same sessions. */
function prepare(home: string): void {
  writeHistory(
    join(home, 'history.jsonl'),
    Array.from({ length: SESSIONS }, (_, s) => {
      const ranking = MEMBERS.map((_, i) => MEMBERS[(i + s) % MEMBERS.length]!);
      return historyEntry({
        id: `s-${String(s).padStart(2, '0')}`,
        timestamp: timestamp(s),
        ranking,
        bordaScores: Object.fromEntries(ranking.map((m, i) => [m, 1 - i / (MEMBERS.length - 1)])),
      });
    }),
  );
  appendJsonLines(
    join(home, 'contributions.jsonl'),
    Array.from({ length: SESSIONS }, (_, s) =>
      MEMBERS.map((member, i) => ({
        schema_version: '1.0.0',
        record_id: `s-${String(s).padStart(2, '0')}:${member}`,
        session_id: `s-${String(s).padStart(2, '0')}`,
        conversation_id: null,
        timestamp: timestamp(s),
        member,
        model: member,
        personality: null,
        strategy: s % 2 === 0 ? 'balanced' : 'risk-averse',
        mode: 'consensus',
        // 1/28, 2/28, … 7/28: the block's weights sum to 1.
        weight: (i + 1) / 28,
        vote_winner: i === s % MEMBERS.length,
        config_version: '1.0.0',
      })),
    ).flat(),
  );
}

/**
 * Each row of `selector`'s tables, unscrolled: whether its name (the row header) and its `td.num` holding an interval
 * end within what is seen of it, the viewport and the box that scrolls the table.
 */
const INTERVALS_IN_VIEW = (selector: string) => `(() => {
  const viewport = document.documentElement.clientWidth;
  return [...document.querySelectorAll(${JSON.stringify(selector)})].flatMap((table) => {
    let box = table.parentElement;
    while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    const seen = Math.min(viewport, box ? box.getBoundingClientRect().right : viewport);
    return [...table.querySelectorAll('tbody tr')].map((row) => {
      const name = row.querySelector('th');
      const interval = [...row.children].find((c) => c.matches('td.num') && c.textContent.includes('['));
      const right = (c) => (c ? c.getBoundingClientRect().right : Infinity);
      return { row: name ? name.textContent : '', inView: right(name) <= seen + 0.5 && right(interval) <= seen + 0.5 };
    });
  });
})()`;

describe.runIf(existsSync(chromiumPath))(
  'the dashboard at a phone’s width (390 px): nothing scrolls the page sideways, intervals stay in view (chromium)',
  () => {
    let dashboard: OpenDashboard;

    beforeAll(async () => {
      dashboard = await openDashboard({ observations: observations(), token: TOKEN, now: NOW, prepare });
    }, 30_000);

    afterAll(async () => {
      await dashboard?.close();
    });

    it('fits every table and interval bar at 390 px with seven long model ids, drift periods and flags', async () => {
      const { page, problems } = dashboard;
      await page.setViewportSize(PHONE);
      await page.goto(`${dashboard.url}/#/dashboard`);
      const bias = page.locator('section[aria-labelledby="dash-bias"]');
      // Every section is filled: the leaderboard's and the heatmap's seven rows, the drift periods, three figure tables.
      await bias.locator('table.periods').waitFor({ timeout: 20_000 });
      await page.locator('table.heatmap').waitFor({ timeout: 20_000 });
      expect(await page.locator('table.leaderboard tbody tr').count()).toBe(7);
      expect(await page.locator('table.heatmap tbody tr').count()).toBe(7);
      expect(await bias.locator('table.figures').count()).toBe(3);
      expect(await bias.locator('table.figures').first().locator('tbody tr').count()).toBe(7);
      expect(await bias.getByRole('list', { name: 'Flags', exact: true }).locator('li').count()).toBeGreaterThan(0);

      const measured = await measurePhoneOverflow(page);
      expect(measured.viewport).toBe(PHONE.width);
      expect(measured.measured).toBeGreaterThanOrEqual(6 + 7 + 7 + 1);
      expect(measured.escaped).toEqual([]);
      expect(measured.scrollWidth).toBeLessThanOrEqual(PHONE.width);
      // What a reader looks for first, the name and the estimate with its interval, needs no scrolling.
      const rows = await page.evaluate<{ row: string; inView: boolean }[]>(
        INTERVALS_IN_VIEW('table.leaderboard, table.figures'),
      );
      expect(rows.length).toBe(7 + 7 + 7 + 1);
      expect(rows.filter((r) => !r.inView).map((r) => r.row)).toEqual([]);
      expect(problems).toEqual([]);
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'serve-dashboard-phone.png'), fullPage: true });
    }, 60_000);
  },
);
