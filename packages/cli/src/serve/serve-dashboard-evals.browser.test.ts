import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../eval/compute-eval-report.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { chromiumPath, openDashboard } from '../testing/open-dashboard.js';
import type { OpenDashboard } from '../testing/open-dashboard.js';
import { PHONE, measurePhoneOverflow } from '../testing/phone-width.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const example = resolve(import.meta.dirname, '../../../../examples/eval/questions.jsonl');
const TOKEN = 'dashboard-evals-token-0123456789abcdef0123456789';
const NOW = '2026-11-28T17:00:00Z';
const MEMBERS = ['simulated:ada', 'simulated:basil', 'simulated:cleo', 'simulated:dmitri', 'simulated:edda'];

describe.runIf(existsSync(chromiumPath))('the dashboard’s Evals section (issue 31; chromium)', () => {
  let dashboard: OpenDashboard;
  let report: EvalReport;

  beforeAll(async () => {
    // The shipped example run offline (--demo) in a home of its own; its saved report is copied into the served home.
    const evalHome = mkdtempSync(join(tmpdir(), 'council-dashboard-evals-'));
    const c = captureIo();
    const code = await runCli(['eval', example, '--demo', '--home', evalHome, '--json', '--bootstrap', '200'], {
      version: '1.2.3',
      io: c.io,
      env: {},
      cwd: evalHome,
    });
    expect(code, c.err()).toBe(0);
    report = JSON.parse(c.out()) as EvalReport;
    dashboard = await openDashboard({
      observations: [],
      token: TOKEN,
      now: NOW,
      prepare: (home) => cpSync(join(evalHome, 'evals'), join(home, 'evals'), { recursive: true }),
    });
  }, 60_000);

  afterAll(async () => {
    await dashboard?.close();
  });

  it('shows the run’s accuracy · agreement · bias table with intervals and the council against its best member, at 1280 px and at 390 px', async () => {
    const { page, problems } = dashboard;
    await page.goto(`${dashboard.url}/#/dashboard`);
    const section = page.locator('section[aria-labelledby="dash-evals"]');
    const table = section.locator('table.eval-table');
    await table.waitFor({ timeout: 20_000 });
    // A row per member and one for the synthesis.
    expect(await table.locator('tbody tr').count()).toBe(MEMBERS.length + 1);
    for (const m of MEMBERS) await expect(table.locator('tbody th', { hasText: m }).count()).resolves.toBe(1);
    const text = await section.innerText();
    expect(text).toContain('Demo run on simulated members: a walk through the report, not a measurement.');
    expect(text).toContain(
      '32 of 32 items done (22 answered by the council, 5 with people’s preferences, 5 with people’s scores)',
    );
    // Each member's key-content share as the report has it, with Wilson's interval, and its items under it.
    for (const m of report.members) {
      const f = m.keyContent;
      const cell = `${Math.round(f.estimate! * 100)}%\n[${Math.round(f.interval!.lower * 100)}–${Math.round(f.interval!.upper * 100)}%] n=${f.n}`;
      expect(await table.locator('tbody tr', { hasText: m.member }).locator('td').first().innerText()).toBe(cell);
    }
    // The harsh demo reviewer (dmitri) is measured below the typical one: a negative offset with its interval.
    expect(await table.locator('tbody tr', { hasText: 'simulated:dmitri' }).locator('td').last().innerText()).toMatch(
      /^−\d\.\d\d\n\[−\d\.\d\d, [−+]?\d\.\d\d\]$/,
    );
    const versus = section.locator('p.eval-versus');
    expect(await versus.innerText()).toMatch(
      /^Is the council better than its best member\? On \d+ items the synthesis was right \d+% of the time/,
    );
    // Every other figure in words, folded away until opened.
    const words = section.locator('details.eval-sentences');
    expect(await words.locator('li').first().isVisible()).toBe(false);
    await words.locator('summary').click();
    await expect(words.getByText(/^The run cost /).isVisible()).resolves.toBe(true);
    // At 1280 px the whole table is in its box, nothing to scroll to.
    const [tableWidth, boxWidth] = await page.evaluate<[number, number]>(
      `(() => { const t = document.querySelector('table.eval-table'); return [t.getBoundingClientRect().width, t.parentElement.clientWidth]; })()`,
    );
    expect(tableWidth).toBeLessThanOrEqual(boxWidth + 0.5);
    mkdirSync(artifacts, { recursive: true });
    await section.screenshot({ path: join(artifacts, 'serve-dashboard-evals.png') });

    await page.setViewportSize(PHONE);
    await table.waitFor();
    const measured = await measurePhoneOverflow(page);
    expect(measured.viewport).toBe(PHONE.width);
    expect(measured.escaped).toEqual([]);
    expect(measured.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    // At a phone's width the table scrolls inside its box; the name and the first interval are in view unscrolled.
    const inView = await page.evaluate(`(() => {
      const table = document.querySelector('table.eval-table');
      const box = table.parentElement.getBoundingClientRect().right;
      const seen = Math.min(document.documentElement.clientWidth, box);
      // The name and the first figure's cell (its estimate over its interval).
      return [...table.querySelectorAll('tbody tr')].slice(0, -1).map((row) => row.querySelector('td.num').getBoundingClientRect().right <= seen + 0.5);
    })()`);
    expect(inView).toEqual(MEMBERS.map(() => true));
    await section.screenshot({ path: join(artifacts, 'serve-dashboard-evals-phone.png') });
    expect(problems).toEqual([]);
  }, 60_000);
});
