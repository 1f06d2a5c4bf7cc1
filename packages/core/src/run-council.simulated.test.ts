import { ModelNotFoundError } from '@council/providers';
import { createScriptedModel } from '@council/providers/test';
import { describe, expect, it, vi } from 'vitest';
import { fixedClock } from './__fixtures__/scripted-council.js';
import { runCouncil } from './run-council.js';

const query = 'How should a three-person team plan its first database migration?';
const members = ['simulated:ada', 'simulated:basil', 'simulated:cleo', 'simulated:dmitri'];

describe('runCouncil over the offline simulated provider (the prompt contract)', () => {
  it('every review is read from its JSON block, every member is ranked, and the chairman’s contributors are members', async () => {
    const session = await runCouncil({
      query,
      members,
      chairman: 'simulated:ada',
      seed: 42,
      clock: fixedClock,
      biasAudit: true,
    });
    expect(session.excluded).toEqual([]);
    for (const review of session.stage2) {
      expect(review.evaluation?.format).toBe('json');
      expect([...review.evaluation!.ranking].sort()).toEqual([...members].sort());
      expect(Object.keys(review.evaluation!.scores).sort()).toEqual([...members].sort());
      expect(Object.keys(review.evaluation!.critiques).sort()).toEqual([...members].sort());
      for (const critique of Object.values(review.evaluation!.critiques)) expect(critique.strengths).not.toBe('');
    }
    expect(session.synthesis?.contributors?.length).toBeGreaterThan(0);
    for (const c of session.synthesis!.contributors!) expect(members).toContain(c.id);
    expect(session.synthesis!.contributors!.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 12);
    expect(session.synthesis!.text).not.toContain('"contributors"');
    expect(session.biasIndicators).not.toBeNull();
  });

  it('gives byte-identical sessions for the same seed, apart from a fresh session id', async () => {
    const run = () =>
      runCouncil({ query, members, chairman: 'simulated:ada', seed: 7, clock: fixedClock, order: 'latin-square' });
    const [a, b] = [await run(), await run()];
    expect(a.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.sessionId).not.toBe(a.sessionId);
    expect(JSON.stringify({ ...a, sessionId: '' })).toBe(JSON.stringify({ ...b, sessionId: '' }));
  });
});

describe('runCouncil with the shared scripted model', () => {
  const answer = (id: string) =>
    createScriptedModel({
      modelId: id,
      respond: (call) =>
        call.messages.some((m) => m.content.includes('FINAL RANKING'))
          ? '```json\n{"ranking": ["Response B", "Response A"]}\n```'
          : `answer from ${id}`,
    });

  it('falls back past a chairman whose id went stale (ModelNotFoundError)', async () => {
    const stale = createScriptedModel({
      modelId: 'old/chairman',
      steps: [
        {
          error: new ModelNotFoundError({
            message: 'No endpoints found for old/chairman.',
            provider: 'openrouter',
            url: 'http://127.0.0.1/',
            modelId: 'old/chairman',
          }),
        },
      ],
    });
    const backup = createScriptedModel({
      modelId: 'new/chairman',
      steps: ['Synthesis.\n```json\n{"contributors": [{"id": "a", "weight": 1, "reason": "r"}]}\n```'],
    });
    const session = await runCouncil({
      query,
      members: [answer('a'), answer('b')],
      chairman: stale,
      chairmanFallbacks: [backup],
      seed: 1,
      clock: fixedClock,
    });
    expect(session.excluded).toEqual([
      { member: 'old/chairman', stage: 3, reason: 'error', message: 'No endpoints found for old/chairman.' },
    ]);
    expect(session.synthesis).toMatchObject({
      model: 'new/chairman',
      text: 'Synthesis.',
      contributors: [{ id: 'a', weight: 1, reason: 'r' }],
    });
  });

  it('a member that honours the abort signal is cut off at its stage timeout', async () => {
    const slow = createScriptedModel({ modelId: 'slow', steps: [{ text: 'late', delayMs: 10_000 }] });
    // A fake clock: the council finishes once 60 ms have passed on it, not the member's 10 s (no wall-clock bound).
    vi.useFakeTimers();
    try {
      let settled = false;
      const running = runCouncil({
        query,
        members: [answer('a'), answer('b'), slow],
        chairman: answer('a'),
        seed: 1,
        timeouts: { stage1Ms: 60 },
      }).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(60);
      expect(settled).toBe(true);
      const session = await running;
      expect(session.excluded).toEqual([
        { member: 'slow', stage: 1, reason: 'timeout', message: 'no answer within 60 ms' },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
