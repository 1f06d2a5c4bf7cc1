import { describe, expect, it } from 'vitest';
import type { CouncilEvent } from '@council/core';
import { createCouncilProgressNotifier } from './council-progress-notifier.js';
import type { ProgressUpdate } from './council-progress-notifier.js';

const usage = { inputTokens: 1, outputTokens: 1 };

function run(events: CouncilEvent[]): ProgressUpdate[] {
  const updates: ProgressUpdate[] = [];
  const notifier = createCouncilProgressNotifier({ send: (u) => void updates.push(u), now: () => 0 });
  for (const e of events) notifier.onEvent(e);
  return updates;
}

describe('createCouncilProgressNotifier', () => {
  it('counts a 4-member council with 2 reviewers as 1 + 4 + 1 + 2 + 1 + 1 steps, re-estimating at stage 2', () => {
    const member = (stage: 1 | 2 | 3, id: string): CouncilEvent => ({
      type: 'model-finished',
      stage,
      member: id,
      model: id,
      latencyMs: 1500,
      usage,
    });
    const updates = run([
      { type: 'stage-started', stage: 1, calls: 4 },
      member(1, 'a'),
      member(1, 'b'),
      { type: 'model-failed', stage: 1, member: 'c', model: 'c', reason: 'timeout', message: 'slow' },
      member(1, 'd'),
      { type: 'stage-finished', stage: 1, succeeded: 3, failed: 1 },
      { type: 'usage', tokens: 10, costUsd: null },
      { type: 'stage-started', stage: 2, calls: 2 },
      member(2, 'a'),
      member(2, 'b'),
      { type: 'stage-started', stage: 3, calls: 1 },
      member(3, 'chair'),
    ]);
    expect(updates.map((u) => u.progress)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Stage 1 expects its 4 calls, 4 reviews, and the chairman: 1 + 4 + 1 + 4 + 1 + 1.
    expect(updates[0]!.total).toBe(12);
    // Two reviewers only: 5 done, then 1 + 2 + 1 + 1.
    expect(updates[5]!.total).toBe(10);
    expect(updates.at(-1)).toEqual({ progress: 10, total: 10, message: 'stage 3: chair synthesised in 1.5 s' });
    expect(updates[3]!.message).toBe('stage 1: c failed (timeout)');
    expect(updates[0]!.message).toBe('stage 1 of 3 (answers): 4 members');
  });

  it('never reports progress above the total when a fallback chairman takes over', () => {
    const updates = run([
      { type: 'stage-started', stage: 3, calls: 1 },
      { type: 'model-failed', stage: 3, member: 'x', model: 'x', reason: 'error', message: 'boom' },
      { type: 'model-retried', stage: 3, member: 'y', model: 'y', previous: 'x', reason: 'error' },
      { type: 'model-finished', stage: 3, member: 'y', model: 'y', latencyMs: 10, usage },
    ]);
    expect(updates.map((u) => [u.progress, u.total])).toEqual([
      [1, 2],
      [2, 2],
      [3, 3],
    ]);
  });

  it('between steps, a heartbeat names the members still pending with a progress ½, ⅔ … of the way to the next step', () => {
    const updates: ProgressUpdate[] = [];
    let clock = 1_000;
    const notifier = createCouncilProgressNotifier({ send: (u) => void updates.push(u), now: () => clock });
    notifier.heartbeat(clock);
    // Nothing is pending before the council starts: no update.
    expect(updates).toEqual([]);
    notifier.onEvent({ type: 'stage-started', stage: 1, calls: 2 });
    notifier.onEvent({ type: 'model-started', stage: 1, member: 'fast', model: 'fast' });
    notifier.onEvent({ type: 'model-started', stage: 1, member: 'slow', model: 'slow' });
    notifier.onEvent({ type: 'model-finished', stage: 1, member: 'fast', model: 'fast', latencyMs: 2000, usage });
    clock += 10_000;
    notifier.heartbeat(clock);
    clock += 10_000;
    notifier.heartbeat(clock);
    notifier.onEvent({ type: 'model-finished', stage: 1, member: 'slow', model: 'slow', latencyMs: 20_000, usage });
    notifier.onEvent({ type: 'stage-finished', stage: 1, succeeded: 2, failed: 0 });
    notifier.heartbeat(clock + 10_000);
    expect(updates.map((u) => [u.progress, u.message])).toEqual([
      [1, 'stage 1 of 3 (answers): 2 members'],
      [2, 'stage 1: fast answered in 2.0 s'],
      [2.5, 'still waiting for slow (10 s)'],
      [2 + 2 / 3, 'still waiting for slow (20 s)'],
      [3, 'stage 1: slow answered in 20.0 s'],
    ]);
  });

  it('a heartbeat tells the calls sent apart from those queued for a free slot of their endpoint', () => {
    const updates: ProgressUpdate[] = [];
    const notifier = createCouncilProgressNotifier({ send: (u) => void updates.push(u), now: () => 0 });
    notifier.onEvent({ type: 'stage-started', stage: 1, calls: 3 });
    for (const m of ['a', 'b', 'c']) notifier.onEvent({ type: 'model-started', stage: 1, member: m, model: m });
    notifier.onEvent({ type: 'model-queued', stage: 1, member: 'b', model: 'b' });
    notifier.onEvent({ type: 'model-queued', stage: 1, member: 'c', model: 'c' });
    notifier.heartbeat(5_000);
    notifier.onEvent({ type: 'model-dispatched', stage: 1, member: 'b', model: 'b' });
    notifier.onEvent({ type: 'model-finished', stage: 1, member: 'a', model: 'a', latencyMs: 5_000, usage });
    notifier.onEvent({ type: 'model-finished', stage: 1, member: 'b', model: 'b', latencyMs: 1_000, usage });
    notifier.heartbeat(10_000);
    // Queueing is no step: the first beat is half-way from step 1, the second from step 3.
    expect(updates.filter((u) => !Number.isInteger(u.progress)).map((u) => [u.progress, u.message])).toEqual([
      [1.5, 'still waiting for a (5 s); queued for a free slot of their endpoint: b, c'],
      [3.5, 'waiting (10 s); queued for a free slot of their endpoint: c'],
    ]);
  });

  it('keeps heartbeat progress increasing and below the next step for an hour of beats', () => {
    const updates: ProgressUpdate[] = [];
    const notifier = createCouncilProgressNotifier({ send: (u) => void updates.push(u), now: () => 0 });
    notifier.onEvent({ type: 'stage-started', stage: 1, calls: 2 });
    notifier.onEvent({ type: 'model-started', stage: 1, member: 'slow', model: 'slow' });
    notifier.onEvent({ type: 'model-finished', stage: 1, member: 'fast', model: 'fast', latencyMs: 10, usage });
    // 3600 s of beats, far more than the 50 after which 2 + 1 - 2^-n rounds to 3.
    for (let i = 0; i < 3600; i++) notifier.heartbeat(0);
    const beats = updates.slice(2).map((u) => u.progress);
    expect(beats).toHaveLength(3600);
    for (let i = 1; i < beats.length; i++) expect(beats[i]!).toBeGreaterThan(beats[i - 1]!);
    // The 100th beat is 2 + 100/101, the last 2 + 3600/3601: below step 3.
    expect(beats[99]).toBe(2 + 100 / 101);
    expect(beats.at(-1)).toBe(2 + 3600 / 3601);
    expect(beats.at(-1)!).toBeLessThan(3);
  });
});
