import { createScriptedModel } from '@council/providers/test';
import { describe, expect, it } from 'vitest';
import { fixedClock } from './__fixtures__/scripted-council.js';
import type { CouncilEvent } from './council-event.js';
import type { Stage1Result, Stage2Result } from './council-session.js';
import { runCouncil } from './run-council.js';

const query = 'Which test should a legacy billing module get first?';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A member that answers after `answerMs` and reviews after `reviewMs`, ranking A before B before C. */
function member(id: string, delays: { answerMs: number; reviewMs: number }) {
  return createScriptedModel({
    modelId: id,
    respond: async (call) => {
      const reviewing = call.messages.some((m) => m.content.includes('FINAL RANKING'));
      await sleep(reviewing ? delays.reviewMs : delays.answerMs);
      return reviewing
        ? '```json\n{"ranking": ["Response A", "Response B", "Response C"], "scores": {"Response A": 9, "Response B": 6, "Response C": 3}}\n```'
        : `answer from ${id}`;
    },
  });
}

describe('runCouncil passes answers and reviews to onAnswer and onReview as they arrive (issue 16)', () => {
  it('calls onAnswer once per member in the order the calls end, all before stage 1 ends; onReview once per reviewer after that', async () => {
    const log: string[] = [];
    const answers: Stage1Result[] = [];
    const reviews: Stage2Result[] = [];
    // Answers end in the order c (5 ms), a (30 ms), b (60 ms); reviews b (5 ms), c (30 ms), a (60 ms).
    const members = [
      member('a', { answerMs: 30, reviewMs: 60 }),
      member('b', { answerMs: 60, reviewMs: 5 }),
      member('c', { answerMs: 5, reviewMs: 30 }),
    ];
    const session = await runCouncil({
      query,
      members,
      chairman: members[0]!,
      seed: 1,
      clock: fixedClock,
      onEvent: (e: CouncilEvent) => {
        if (e.type === 'stage-started' || e.type === 'stage-finished') log.push(`${e.type} ${e.stage}`);
      },
      onAnswer: (r) => {
        answers.push(r);
        log.push(`answer ${r.member}`);
      },
      onReview: (r) => {
        reviews.push(r);
        log.push(`review ${r.reviewer}`);
      },
    });
    expect(log).toEqual([
      'stage-started 1',
      'answer c',
      'answer a',
      'answer b',
      'stage-finished 1',
      'stage-started 2',
      'review b',
      'review c',
      'review a',
      'stage-finished 2',
      'stage-started 3',
      'stage-finished 3',
    ]);
    expect(answers.map((a) => a.text)).toEqual(['answer from c', 'answer from a', 'answer from b']);
    // The listeners see the very results the session keeps.
    for (const a of answers) expect(session.stage1.find((s) => s.member === a.member)).toEqual(a);
    for (const r of reviews) expect(session.stage2.find((s) => s.reviewer === r.reviewer)).toEqual(r);
    // Each review's labels map back to members: "Response A" is the first member of the order that reviewer saw.
    for (const r of reviews) expect(r.labelToModel['Response A']?.model).toBe(r.order[0]);
  });

  it('reports a failed answer too (text null), once', async () => {
    const answers: Stage1Result[] = [];
    const broken = createScriptedModel({ modelId: 'broken', respond: () => Promise.reject(new Error('down')) });
    const members = [member('a', { answerMs: 1, reviewMs: 1 }), member('b', { answerMs: 1, reviewMs: 1 }), broken];
    await runCouncil({
      query,
      members,
      chairman: members[0]!,
      seed: 1,
      clock: fixedClock,
      onAnswer: (r) => answers.push(r),
    });
    expect(answers.map((a) => a.member).sort()).toEqual(['a', 'b', 'broken']);
    expect(answers.find((a) => a.member === 'broken')?.text).toBeNull();
  });

  it('ignores listeners that throw: the session completes as without them', async () => {
    const members = [
      member('a', { answerMs: 1, reviewMs: 1 }),
      member('b', { answerMs: 1, reviewMs: 1 }),
      member('c', { answerMs: 1, reviewMs: 1 }),
    ];
    const throwing = () => {
      throw new Error('display broke');
    };
    const plain = await runCouncil({ query, members, chairman: members[0]!, seed: 1, clock: fixedClock });
    const withThrowing = await runCouncil({
      query,
      members,
      chairman: members[0]!,
      seed: 1,
      clock: fixedClock,
      onAnswer: throwing,
      onReview: throwing,
    });
    const { sessionId: _a, ...left } = plain;
    const { sessionId: _b, ...right } = withThrowing;
    expect(right).toEqual(left);
    expect(withThrowing.stage2).toHaveLength(3);
  });
});
