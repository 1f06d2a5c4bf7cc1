import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

async function demo(home: string, env: Record<string, string> = {}) {
  const c = captureIo();
  const code = await runCli(['demo', '--home', home], { version: '1.0.0', io: c.io, env, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

/**
 * `run` and the milliseconds of the timers that fired while it ran, added up: the time it spent waiting on purpose
 * (simulated latency, retries), counted instead of timed. Deadlines that are cleared before they fire do not count.
 */
async function withTimerWaits<T>(run: () => Promise<T>): Promise<{ result: T; waitedMs: number }> {
  let waitedMs = 0;
  const original = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) =>
    original(() => {
      waitedMs += Math.max(0, ms ?? 0);
      callback(...args);
    }, ms)) as typeof setTimeout);
  try {
    return { result: await run(), waitedMs };
  } finally {
    spy.mockRestore();
  }
}

describe('council demo', () => {
  it('runs one visible simulated session, 40 more and a report that finds the biases built in, offline and fast', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-demo-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'council-real-'));
    // The user's own store and consent must not be touched: the demo uses its home only.
    const { result: r, waitedMs } = await withTimerWaits(() =>
      demo(home, {
        LLM_COUNCIL_BIAS_STORE: join(elsewhere, 'real.jsonl'),
        LLM_COUNCIL_BIAS_CONSENT: '3',
        OPENROUTER_BASE_URL: 'http://127.0.0.1:9',
      }),
    );
    expect(r.code).toBe(0);
    // Fast, counted rather than timed: only the visible session waits its personas' simulated latency (30–60 ms a
    // call, about 0.5 s in all); the 40 others wait none. Were they to wait too, it would be about 20 s.
    expect(waitedMs).toBeLessThan(5_000);
    expect(r.err).toContain('runs on the simulated provider (offline personas, no key, no network)');
    expect(r.out).toContain('── Session 1: a full council on the simulated provider ──');
    expect(r.out).toMatch(/Answer \(chairman simulated:ada, balanced strategy, consensus mode\) \[simulated\]/);
    expect(r.out).toMatch(/Leaderboard \[simulated\]/);
    expect(r.out).toContain('Synthesised from: simulated:');
    expect(r.out).toContain('── Sessions 2 to 41: 40 more simulated councils');
    expect(r.out).toContain('Council bias report [simulated data]\n41 sessions · ');
    expect(r.out).toContain('Evidence: moderate (20–49 sessions)');
    // The personas' built-in biases are what the report flags.
    expect(r.out).toMatch(/⚑ Position bias: answers shown first score \d\.\d\d points higher than average/);
    expect(r.out).toMatch(/⚑ Self-preference: simulated:ada scores its own answers \d\.\d\d points higher/);
    expect(r.out).toMatch(/⚑ Harsh reviewer: simulated:dmitri scores \d\.\d\d points below the typical reviewer/);
    expect(r.out).not.toMatch(/Self-preference: simulated:(basil|cleo|dmitri|edda)/);
    // Offsets are measured against the typical reviewer, so dmitri's harshness makes no one else look generous.
    expect(r.out).not.toMatch(/Generous reviewer|Harsh reviewer: simulated:(ada|basil|cleo|edda)/);
    // No machine name, raw tier or ADR number in what a newcomer reads (they stay in --format json).
    expect(r.out).not.toMatch(/\b[a-z]+_[a-z_]+\[[^\]]*\]|insufficient_data|minSessions|ADR-\d+/);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(home, 'telemetry'))).toBe(false); // consent 1 inside the demo: nothing queued
    expect(existsSync(join(home, 'bias-report.html'))).toBe(true);
    // The HTML report says the same in words: its visible text has no machine name, raw tier or ADR number.
    const page = readFileSync(join(home, 'bias-report.html'), 'utf8')
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/<[^>]+>/g, ' ');
    expect(page).toContain('⚑ Harsh reviewer: simulated:dmitri scores');
    expect(page).not.toMatch(/\b[a-z]+_[a-z_]+\[[^\]]*\]|insufficient_data|minSessions|ADR-\d+/);
    expect(r.out).not.toContain('\u001b[');
  }, 30_000);

  it('writes its files for the owner only (0600, directories 0700), even under a permissive umask and over an old report', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-demo-'));
    const previous = process.umask(0);
    try {
      // A report from an earlier run, readable by everyone: the demo replaces it rather than writing into it.
      writeFileSync(join(home, 'bias-report.html'), 'old report', { mode: 0o644 });
      expect(statSync(join(home, 'bias-report.html')).mode & 0o777).toBe(0o644);
      expect((await demo(join(home, 'nested', 'home'))).code).toBe(0);
      expect((await demo(home)).code).toBe(0);
    } finally {
      process.umask(previous);
    }
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(join(home, 'bias-report.html'))).toBe(0o600);
    expect(mode(join(home, 'bias_metrics.jsonl'))).toBe(0o600);
    expect(mode(join(home, 'history.jsonl'))).toBe(0o600);
    expect(mode(join(home, 'nested'))).toBe(0o700);
    expect(mode(join(home, 'nested', 'home'))).toBe(0o700);
    expect(mode(join(home, 'nested', 'home', 'bias-report.html'))).toBe(0o600);
    expect(readdirSync(home).filter((name) => name.includes('.tmp-'))).toEqual([]);
  }, 30_000);

  it('gives the same report for the same seed', async () => {
    const a = await demo(mkdtempSync(join(tmpdir(), 'council-demo-')));
    const b = await demo(mkdtempSync(join(tmpdir(), 'council-demo-')));
    const table = (out: string) => out.slice(out.indexOf('Length and score'), out.indexOf('Flags'));
    expect(table(a.out)).toBe(table(b.out));
    expect(table(a.out).length).toBeGreaterThan(500);
  }, 30_000);
});
