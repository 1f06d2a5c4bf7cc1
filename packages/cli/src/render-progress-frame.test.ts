import { describe, expect, it } from 'vitest';
import { applyProgressEvent, createCouncilProgress } from './council-progress.js';
import type { ProgressEvent } from './council-progress.js';
import { createStyle, stripAnsi } from './create-style.js';
import { createLiveDisplay } from './live-display.js';
import { renderProgressFrame } from './render-progress-frame.js';

const plain = createStyle(false);

function play(events: ProgressEvent[]) {
  return events.reduce(
    applyProgressEvent,
    createCouncilProgress({ members: ['alpha', 'beta', 'gamma'], chairman: 'alpha', startedAt: 0, label: 'simulated' }),
  );
}

describe('the live display frames', () => {
  it('shows each member waiting before anything happens', () => {
    const frame = renderProgressFrame(play([]), { now: 0, style: plain });
    expect(frame).toBe(
      [
        'Council · simulated · stage 1: answers · 0.0s · 0 tokens · cost n/a',
        '  member    stage 1 answer        stage 2 review',
        '  alpha     · waiting             · waiting',
        '  beta      · waiting             · waiting',
        '  gamma     · waiting             · waiting',
        '  chairman alpha                  · waiting',
        '',
      ].join('\n'),
    );
  });

  it('shows running members with their elapsed time and spinner, finished ones with their latency, failures with the reason', () => {
    const state = play([
      { type: 'stage-started', stage: 1, at: 0 },
      { type: 'model-started', stage: 1, member: 'alpha', at: 0 },
      { type: 'model-started', stage: 1, member: 'beta', at: 0 },
      { type: 'model-started', stage: 1, member: 'gamma', at: 100 },
      { type: 'model-finished', stage: 1, member: 'alpha', at: 1200, latencyMs: 1200, tokens: 300, costUsd: 0.0015 },
      { type: 'model-failed', stage: 1, member: 'beta', at: 2000, reason: 'timed out after 2.0s' },
      { type: 'model-retried', stage: 1, member: 'gamma', at: 1500, attempt: 2 },
    ]);
    // gamma started at 100 ms; at 2,500 ms it has run 2.4 s; the spinner frame is floor(2400 / 80) % 10 = 0 → '⠋'.
    const frame = renderProgressFrame(state, { now: 2500, style: plain });
    const lines = frame.split('\n');
    expect(lines[0]).toBe('Council · simulated · stage 1: answers · 2.5s · 300 tokens · $0.0015');
    expect(lines[2]).toBe('  alpha     ✓ 1.2s                · waiting');
    expect(lines[3]).toBe('  beta      ✗ timed out after 2.0s  · waiting');
    expect(lines[4]).toBe('  gamma     ⠋ 2.4s (retry 1)      · waiting');
  });

  it('marks members that never reviewed as skipped when stage 2 ends, and totals tokens and cost', () => {
    const state = play([
      { type: 'model-finished', stage: 1, member: 'alpha', at: 10, latencyMs: 10, tokens: 100, costUsd: 0.5 },
      { type: 'model-finished', stage: 1, member: 'gamma', at: 10, latencyMs: 10, tokens: 50, costUsd: 0.25 },
      { type: 'stage-started', stage: 2, at: 20 },
      { type: 'model-finished', stage: 2, member: 'alpha', at: 30, latencyMs: 900, tokens: 10 },
      { type: 'model-finished', stage: 2, member: 'gamma', at: 30, latencyMs: 1000, tokens: 10 },
      { type: 'stage-finished', stage: 2, at: 40 },
      { type: 'stage-started', stage: 3, at: 40 },
      { type: 'model-finished', stage: 3, member: 'alpha', at: 3040, latencyMs: 3000, tokens: 40, costUsd: 0.25 },
      { type: 'stage-finished', stage: 3, at: 3040 },
    ]);
    const lines = renderProgressFrame(state, { now: 3040, style: plain }).split('\n');
    expect(lines[0]).toBe('Council · simulated · done · 3.0s · 210 tokens · $1.00');
    expect(lines[3]).toBe('  beta      · waiting             – skipped');
    expect(lines[5]).toBe('  chairman alpha                  ✓ 3.0s');
  });

  it('shows a call queued for its endpoint as queued, with how long it has waited, then running from its dispatch', () => {
    const queued = play([
      { type: 'stage-started', stage: 1, at: 0 },
      { type: 'model-started', stage: 1, member: 'beta', at: 0 },
      { type: 'model-queued', stage: 1, member: 'beta', at: 0 },
    ]);
    expect(renderProgressFrame(queued, { now: 1500, style: plain }).split('\n')[3]).toBe(
      '  beta      … queued 1.5s         · waiting',
    );
    // Dispatched at 2,000 ms: at 2,500 ms it has run 0.5 s; the spinner frame is floor(500 / 80) % 10 = 6 → '⠦'.
    const sent = applyProgressEvent(queued, { type: 'model-dispatched', stage: 1, member: 'beta', at: 2000 });
    expect(renderProgressFrame(sent, { now: 2500, style: plain }).split('\n')[3]).toBe(
      '  beta      ⠦ 0.5s                · waiting',
    );
  });

  it('says how many rankings were read once stage 2 is over', () => {
    const reviewed = (unread: number) =>
      renderProgressFrame(
        play([
          { type: 'stage-started', stage: 2, at: 0 },
          { type: 'stage-finished', stage: 2, at: 10, succeeded: 3, unread },
        ]),
        { now: 10, style: plain },
      ).split('\n')[1];
    expect(reviewed(3)).toBe('  member    stage 1 answer        stage 2 review · 0 of 3 rankings read');
    expect(reviewed(1)).toBe('  member    stage 1 answer        stage 2 review · 2 of 3 rankings read');
    // Not reported (an older core): nothing is claimed.
    expect(
      renderProgressFrame(play([{ type: 'stage-finished', stage: 2, at: 10, succeeded: 3 }]), {
        now: 10,
        style: plain,
      }).split('\n')[1],
    ).toBe('  member    stage 1 answer        stage 2 review');
  });

  it('keeps every line within the terminal width, also with colours', () => {
    const state = createCouncilProgress({
      members: ['a-very-long-provider/model-name-that-goes-on-and-on'],
      chairman: 'x',
      startedAt: 0,
      label: 'openrouter',
    });
    for (const style of [plain, createStyle(true)]) {
      const frame = renderProgressFrame(state, { now: 0, style, width: 40 });
      for (const line of frame.trimEnd().split('\n')) expect(stripAnsi(line).length).toBeLessThanOrEqual(40);
    }
  });
});

describe('createLiveDisplay', () => {
  it('writes nothing at all when disabled (not a terminal)', () => {
    const written: string[] = [];
    const display = createLiveDisplay({ write: (t) => void written.push(t), enabled: false, render: () => 'frame\n' });
    display.refresh();
    display.stop();
    expect(written).toEqual([]);
    expect(display.active).toBe(false);
  });

  it('redraws in place on a terminal: hides the cursor, moves up over the previous frame, shows the cursor at the end', () => {
    const written: string[] = [];
    let n = 0;
    const display = createLiveDisplay({
      write: (t) => void written.push(t),
      enabled: true,
      render: () => `frame ${++n}\nsecond line\n`,
      intervalMs: 60_000,
    });
    display.refresh();
    display.stop();
    expect(written).toEqual([
      '\u001b[?25l',
      '\u001b[Jframe 1\nsecond line\n',
      '\u001b[2A\r\u001b[Jframe 2\nsecond line\n',
      '\u001b[2A\r\u001b[Jframe 3\nsecond line\n',
      '\u001b[?25h',
    ]);
  });
});
