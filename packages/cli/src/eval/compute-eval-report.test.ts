import { describe, expect, it } from 'vitest';
import { computeEvalReport, describeEvalReport, signed } from './compute-eval-report.js';
import { majorityVote } from './eval-item.js';
import type { EvalItem } from './eval-item.js';
import type { EvalJournalLine } from './eval-journal.js';
import { demoGrade, demoKnowledge } from './eval-demo-models.js';
import { readGrade } from './grade-answer.js';

const pref = (id: string, preferred: 0 | 1 | 'tie'): EvalItem => ({
  id,
  line: 1,
  question: 'Q?',
  preference: { answers: ['a', 'b'], preferred, votes: [preferred] },
});
const scored = (id: string, score: number): EvalItem => ({
  id,
  line: 1,
  question: 'Q?',
  humanScore: { answer: 'a', score },
});
const judged = (id: string, judgements: EvalJournalLine['judgements']): EvalJournalLine => ({
  item_id: id,
  session: null,
  grades: [],
  judgements,
  error: null,
});

function report(items: EvalItem[], lines: EvalJournalLine[]) {
  return computeEvalReport({
    items,
    journal: new Map(lines.map((l) => [l.item_id, l])),
    config: { grader: 'm', demo: false, bootstrap: 300, seed: 1 },
    journalPath: 'j.jsonl',
    now: new Date('2026-11-22T12:00:00Z'),
  });
}

describe('computeEvalReport: agreement with people', () => {
  it('works out κ, agreement and accuracy on clear pairs by hand', () => {
    // People: 0 0 1 1 0 1; the judge: 0 1 1 1 0 0. Agree on 4 of 6 → p_o = ⅔; each says 0 on half → p_e = ½;
    // κ = (⅔ − ½)/(1 − ½) = ⅓. No pair is a tie, so accuracy on clear pairs is the agreement, 4 of 6.
    const people = [0, 0, 1, 1, 0, 1] as const;
    const judge = [0, 1, 1, 1, 0, 0] as const;
    const items = people.map((p, i) => pref(`p${i}`, p));
    const lines = items.map((item, i) =>
      judged(item.id, [
        { reviewer: 'r', kind: 'preference', preferred: judge[i]!, shown_first: 0, cost_usd: null, error: null },
      ]),
    );
    const r = report(items, lines).reviewers.find((x) => x.reviewer === 'r')!;
    expect(r.preferences.kappa.estimate).toBeCloseTo(1 / 3, 12);
    expect(r.preferences.kappa.interval).not.toBeNull();
    expect([r.preferences.agreement.count, r.preferences.agreement.n]).toEqual([4, 6]);
    expect([r.preferences.clearPairs.count, r.preferences.clearPairs.n]).toEqual([4, 6]);
  });

  it('takes several people’s votes: κ against their majority, accuracy only on pairs where they all agree', () => {
    // Votes [0,0,1] → majority 0, people disagree; [1,1] → 1, agree; [0,1] → tie, disagree; [0] → 0, agree.
    // The judge says 0, 1, 'tie', 1: against the majorities 0, 1, tie, 0 it agrees 3 times of 4.
    // Pairs where people agree: [1,1] (judge 1: right) and [0] (judge 1: wrong) → 1 of 2.
    const votes: (0 | 1 | 'tie')[][] = [[0, 0, 1], [1, 1], [0, 1], [0]];
    const judge = [0, 1, 'tie', 1] as const;
    const items: EvalItem[] = votes.map((v, i) => ({
      id: `v${i}`,
      line: 1,
      question: 'Q?',
      preference: { answers: ['a', 'b'], preferred: majorityVote(v), votes: v },
    }));
    const lines = items.map((item, i) =>
      judged(item.id, [
        { reviewer: 'r', kind: 'preference', preferred: judge[i]!, shown_first: 0, cost_usd: null, error: null },
      ]),
    );
    const r = report(items, lines).reviewers[0]!;
    expect([r.preferences.agreement.count, r.preferences.agreement.n]).toEqual([3, 4]);
    expect([r.preferences.clearPairs.count, r.preferences.clearPairs.n]).toEqual([1, 2]);
  });

  it('works out Spearman’s ρ by hand, and counts an unreadable review apart', () => {
    // People 2 4 6 8 10, the judge 1 3 2 9 10: ranks 1 2 3 4 5 and 1 3 2 4 5, Σd² = 2, ρ = 1 − 6·2/(5·24) = 0.9.
    const people = [2, 4, 6, 8, 10];
    const judge = [1, 3, 2, 9, 10];
    const items = [...people.map((s, i) => scored(`s${i}`, s)), scored('s-unread', 5)];
    const lines = [
      ...people.map((_, i) =>
        judged(`s${i}`, [{ reviewer: 'r', kind: 'score', score: judge[i]!, cost_usd: null, error: null }]),
      ),
      judged('s-unread', [{ reviewer: 'r', kind: 'score', score: null, cost_usd: null, error: null }]),
    ];
    const r = report(items, lines).reviewers[0]!;
    expect(r.scores.rho.estimate).toBeCloseTo(0.9, 12);
    expect(r.scores.n).toBe(5);
    expect(r.scores.unread).toBe(1);
  });

  it('says too few items and nothing done in words, never NaN', () => {
    const empty = report([pref('p', 0)], []);
    expect(empty.items.notDone).toBe(1);
    expect(describeEvalReport(empty)).toContain('No item is done yet, so there is nothing to report.');
    const few = report(
      [pref('a', 0), pref('b', 1)],
      [
        judged('a', [{ reviewer: 'r', kind: 'preference', preferred: 0, shown_first: 1, cost_usd: null, error: null }]),
        judged('b', [{ reviewer: 'r', kind: 'preference', preferred: 1, shown_first: 0, cost_usd: null, error: null }]),
      ],
    );
    expect(few.reviewers[0]!.preferences.kappa).toEqual({ estimate: 1, interval: null, n: 2 });
    expect(few.sentences.join(' ')).toContain('2 items are too few for an interval');
    expect(JSON.stringify(few)).not.toContain('NaN');
    // Preference items only: no session, so no bias figure and no sentence claiming one.
    expect(few.bias).toEqual({ sessions: 0, confidence: 'insufficient_data' });
  });
});

describe('grading and the demo’s knowledge', () => {
  it('reads a grader’s last CORRECT or INCORRECT, and neither as null', () => {
    expect(readGrade('CORRECT')).toBe(true);
    expect(readGrade('Incorrect.')).toBe(false);
    expect(readGrade('At first I thought correct, but on reflection: INCORRECT')).toBe(false);
    expect(readGrade('It depends.')).toBeNull();
  });
  it('knows the plain phrases of the key content, else the reference answer', () => {
    const phrase = (text: string) => ({ kind: 'phrase' as const, text });
    const regex = { kind: 'regex' as const, source: '391', flags: '' };
    expect(
      demoKnowledge({ id: 'a', line: 1, question: 'q', accept: { anyOf: [regex, phrase('Paris')], allOf: [] } }),
    ).toBe('Paris');
    expect(
      demoKnowledge({
        id: 'a',
        line: 1,
        question: 'q',
        accept: { anyOf: [], allOf: [phrase('Nile'), phrase('Amazon')] },
      }),
    ).toBe('Nile and Amazon');
    expect(
      demoKnowledge({ id: 'a', line: 1, question: 'q', reference: '391', accept: { anyOf: [regex], allOf: [] } }),
    ).toBe('391');
    expect(demoKnowledge({ id: 'a', line: 1, question: 'q', accept: { anyOf: [regex], allOf: [] } })).toBeNull();
    expect(demoGrade('Answer: The  MOON pulls.', 'the moon pulls.')).toBe(true);
  });
});

describe('signed', () => {
  it('signs a figure with a plus or the typographic minus, and a figure that rounds to zero not at all', () => {
    expect(signed(0.67)).toBe('+0.67');
    expect(signed(-0.67)).toBe('−0.67');
    expect(signed(0.004)).toBe('0.00');
    expect(signed(-0.004)).toBe('0.00');
    // The council-versus-best difference in points: a lower end of exactly 0 reads '0', not '+0'.
    expect(signed(0, 0)).toBe('0');
    expect(signed(27.3, 0)).toBe('+27');
  });
});
