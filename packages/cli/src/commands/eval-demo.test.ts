import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../eval/compute-eval-report.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

const example = resolve(import.meta.dirname, '../../../../examples/eval/questions.jsonl');

describe('council eval --demo on the shipped example', () => {
  it('runs offline with no key and prints accuracy, agreement and bias side by side, labelled as a demo', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-eval-demo-'));
    const c = captureIo();
    // No provider key and no base URL: everything runs on the simulated provider.
    const code = await runCli(['eval', example, '--demo', '--home', home, '--bootstrap', '200'], {
      version: '1.2.3',
      io: c.io,
      env: {},
      cwd: home,
    });
    expect(code, c.err()).toBe(0);
    const out = c.out();
    expect(out).toContain(
      'council eval: 32 of 32 items done (22 answered by the council, 5 human preferences, 5 human scores)',
    );
    expect(out).toContain('Demo run on simulated members: a walk through the report, not a measurement.');
    expect(out).toMatch(
      /member\s+│\s+key content\s+│\s+graded\*\s+│\s+win rate\s+│\s+correct\/\$\s+│\s+κ vs people\s+│\s+ρ vs people\s+│\s+offset \(pts\)/,
    );
    for (const m of ['simulated:ada', 'simulated:basil', 'simulated:cleo', 'simulated:dmitri', 'simulated:edda'])
      expect(out).toContain(`│ ${m}`);
    expect(out).toContain('Is the council better than its best member?');
    expect(out).not.toContain('NaN');
    // The demo's harsh grader (dmitri, built in with harshness 1.5) is measured below the typical reviewer.
    expect(out).toMatch(/simulated:dmitri.*│ −1\.\d\d \[−/);
    // In words, its tier named as the bias report names it (22 sessions: 'moderate', 20–49), not as a 'confidence'.
    expect(out).toMatch(
      /Over the eval's 22 sessions it scores 1\.\d\d points below the typical reviewer .*; evidence: moderate\./,
    );
    expect(out).not.toContain('moderate confidence');
  }, 60_000);

  it('gives the same report as JSON, with an interval for every figure of 5 items or more', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-eval-demo-'));
    const c = captureIo();
    const code = await runCli(['eval', example, '--demo', '--home', home, '--json', '--bootstrap', '200'], {
      version: '1.2.3',
      io: c.io,
      env: {},
      cwd: home,
    });
    expect(code, c.err()).toBe(0);
    const report = JSON.parse(c.out()) as EvalReport;
    expect(report.demo).toBe(true);
    expect(report.grader).toBe('simulated');
    for (const m of report.members) {
      expect(m.keyContent.n).toBe(19);
      expect(m.keyContent.interval).not.toBeNull();
    }
    for (const r of report.reviewers) {
      expect(r.preferences.n + r.preferences.unread).toBe(5);
      expect(r.bias.offset?.sessions).toBe(22);
    }
  }, 60_000);

  it('writes the same report as a self-contained HTML page with --html: the table, three charts, the sentences', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-eval-demo-'));
    const c = captureIo();
    const code = await runCli(
      ['eval', example, '--demo', '--home', home, '--html', 'eval.html', '--bootstrap', '200'],
      {
        version: '1.2.3',
        io: c.io,
        env: {},
        cwd: home,
      },
    );
    expect(code, c.err()).toBe(0);
    expect(c.err()).toContain(`HTML report: ${join(home, 'eval.html')}`);
    const html = readFileSync(join(home, 'eval.html'), 'utf8');
    expect(html).toContain('<h2>Accuracy · agreement · bias</h2>');
    expect(html).toContain('Demo run on <strong>simulated</strong> members');
    for (const id of ['eval-accuracy', 'eval-kappa', 'eval-offset']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('<th scope="row">simulated:dmitri</th>');
    // Shares have Wilson's interval, not a bootstrap's (as --help and the text report say).
    expect(html).toContain('Wilson’s score interval for a share');
    expect(html).not.toContain('95% bootstrap intervals over items');
    expect(html).toContain('Is the council better than its best member?');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('NaN');
  }, 60_000);
});
