import { createRng } from '@council/scoring';
import { describe, expect, it } from 'vitest';
import { computeEvalReport, describeEvalReport, signed } from './compute-eval-report.js';
import { councilVsBestInterval } from './compute-eval-report-vs-best.js';
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
    // The interval: Wilson's for 4 agreeing of 6, [0.29999, 0.90323] (centre (⅔ + z²/12)/(1 + z²/6), z = 1.95996),
    // mapped through κ = (p_o − ½)/(1 − ½) = 2·p_o − 1 → [−0.400013, 0.806457]; its half-widths around ⅓ then scaled
    // by t₅/z · √(V_FCE/V_Cohen) on the table plus ½ a cell. That table (people × judge; 0, 1, tie) is
    // [[2.5, 1.5, .5], [1.5, 2.5, .5], [.5, .5, .5]] of 10.5: shares 3/7, 3/7, 1/7 on both sides, p_o = 11/21,
    // p_e = 19/49, κ = 2/9. Fleiss, Cohen & Everitt's A = 2·(5/21)(1/3)² + (1/21)(7/9)² = 139/1701,
    // B = (7/9)²·[2·(1/7)(6/7)² + 4·(1/21)(4/7)²] = 40/243, C = (2/9 − 19/63)² = 25/3969: A + B − C = 2858/11907, over
    // p_o(1 − p_o) = 110/441 → 2858/2970; √ = 0.980964. t₅ = 2.570582: scale 1.286578, so
    // [⅓ − 1.286578·(⅓ + 0.400013), ⅓ + 1.286578·(0.806457 − ⅓)].
    expect(r.preferences.kappa.interval!.lower).toBeCloseTo(-0.610175, 5);
    expect(r.preferences.kappa.interval!.upper).toBeCloseTo(0.942044, 5);
    expect([r.preferences.agreement.count, r.preferences.agreement.n]).toEqual([4, 6]);
    expect([r.preferences.clearPairs.count, r.preferences.clearPairs.n]).toEqual([4, 6]);
  });

  it('gives perfect agreement on few pairs a lower end, where a bootstrap would say [1, 1]', () => {
    // 5 pairs, all agreeing: κ = 1, and the mapped Wilson interval stands (no disagreement to scale by). Shares 2/5,
    // 2/5, 1/5 on both sides → p_e = 0.16 + 0.16 + 0.04 = 0.36. Wilson's lower end for 5 of 5 is n/(n + z²) =
    // 5/8.84146 = 0.565518, so κ's is (0.565518 − 0.36)/0.64 = 0.321121.
    const choices = [0, 1, 0, 1, 'tie'] as const;
    const items = choices.map((p, i) => pref(`q${i}`, p));
    const lines = items.map((item, i) =>
      judged(item.id, [
        { reviewer: 'r', kind: 'preference', preferred: choices[i]!, shown_first: 0, cost_usd: null, error: null },
      ]),
    );
    const { kappa } = report(items, lines).reviewers[0]!.preferences;
    expect(kappa.estimate).toBe(1);
    expect(kappa.interval!.lower).toBeCloseTo(0.321121, 5);
    expect(kappa.interval!.upper).toBe(1);
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

describe('councilVsBestInterval', () => {
  // Council right on 8 of 10 items; member A on 6: wrong on 3 where the council is right (n₁₀ = 3), right on 1 where
  // the council is wrong (n₀₁ = 1). Agresti and Min's Wald+2, half an item in each cell: d = (3 − 1)/12 = 0.166667,
  // se = √(3 + 1 + 1 − 2²/12)/12 = 0.180021; d ± 1.95996·se = [−0.186167, 0.519501].
  const council = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0];
  const memberA = [0, 0, 0, 1, 1, 1, 1, 1, 1, 0];
  const options = { draws: 4000, seed: 7 };

  it('gives one member Agresti and Min’s paired interval', () => {
    const i = councilVsBestInterval(council, [memberA], options);
    expect(i.lower).toBeCloseTo(-0.186167, 5);
    expect(i.upper).toBeCloseTo(0.519501, 5);
  });

  it('leaves a member far behind out of the critical value: the same interval as the best alone', () => {
    // Member C is right on no item: d = 8/12 = 0.666667, se = √(8 + 1 − 8²/12)/12 = 0.159571, (0.666667 − 0.166667)/
    // 0.159571 = 3.13 standard errors behind A, beyond √(ln 10) = 1.517; its own ends (lower 0.666667 − 1.96·0.159571
    // = 0.354) lie above A's.
    const alone = councilVsBestInterval(council, [memberA], options);
    const withC = councilVsBestInterval(council, [memberA, new Array<number>(10).fill(0)], options);
    expect(withC).toEqual(alone);
  });

  // The upper end's critical value c for the members that could be best makes the interval miss 5% in all where they
  // are tied: P(every lower end misses) + P(some upper end misses) = 0.05. With k uncorrelated standardized
  // differences (each member wrong on items of its own, and the half-items' shared ±1 cancelling the shared means)
  // that is 0.025^k + 1 − Φ(c)^k = 0.05: c = 1.95996 for two, Φ⁻¹((0.95 + 0.025³)^⅓) = 2.12133 for three. 20,000
  // draws estimate it to about ±0.013 (one standard error); the tolerance is three.
  const tolerance = 0.04;

  it('does not widen for two uncorrelated members that could be best: the critical value is 1.96', () => {
    // Six items, the council right on all; A wrong on items 1–2, B on items 3–6. A: d = 2/8 = 0.25,
    // se = √(2 + 1 − 2²/8)/8 = 0.197642; B: d = 4/8 = 0.5,
    // se = √(4 + 1 − 4²/8)/8 = 0.216506, 1.155 standard errors behind A, within √(ln 6) = 1.339: both could be best.
    // Their residuals' cross-product, 0 over the items + ½·1·1 + ½·(−1)(−1) − 8·0.25·0.5 = 0: uncorrelated.
    // Lower: min(0.25 − 1.95996·0.197642, 0.5 − 1.95996·0.216506) = −0.137372; upper: 0.25 + 1.95996·0.197642 =
    // 0.637372 (B's, 0.924345, lies above).
    const c = [1, 1, 1, 1, 1, 1];
    const a = [0, 0, 1, 1, 1, 1];
    const b = [1, 1, 0, 0, 0, 0];
    const i = councilVsBestInterval(c, [a, b], { draws: 20_000, seed: 3 });
    expect(i.lower).toBeCloseTo(-0.137372, 5);
    expect(i.upper).toBeGreaterThanOrEqual(0.637372 - 1e-9);
    expect(i.upper).toBeLessThanOrEqual(0.25 + (1.95996 + tolerance) * 0.197642);
  });

  it('raises the upper end for three uncorrelated tied members to Φ⁻¹((0.95 + 0.025³)^⅓) = 2.12133', () => {
    // Fourteen items, the council right on all; each member wrong on four items of its own: d = 4/16 = 0.25,
    // se = √(4 + 1 − 4²/16)/16 = 0.125 each; cross-products 0 + 1 − 16·0.25·0.25 = 0. Lower 0.25 − 1.95996·0.125 =
    // 0.005005; upper 0.25 + 2.12133·0.125 = 0.515166.
    const c = new Array<number>(14).fill(1);
    const wrongOn = (from: number) => c.map((_, i) => (i >= from && i < from + 4 ? 0 : 1));
    const i = councilVsBestInterval(c, [wrongOn(0), wrongOn(4), wrongOn(8)], { draws: 20_000, seed: 5 });
    expect(i.lower).toBeCloseTo(0.005005, 5);
    expect(i.upper).toBeGreaterThan(0.515166 - tolerance * 0.125);
    expect(i.upper).toBeLessThan(0.515166 + tolerance * 0.125);
  });

  it('holds the estimate, lies in [−1, 1] and does not depend on the members’ order (200 seeded datasets)', () => {
    const rng = createRng('council-vs-best-properties');
    const bits = (length: number, p: number) => Array.from({ length }, () => (rng.next() < p ? 1 : 0));
    for (let r = 0; r < 200; r++) {
      const n = 5 + rng.nextInt(40);
      const synthesis = bits(n, rng.next());
      const members = Array.from({ length: 1 + rng.nextInt(4) }, () => bits(n, rng.next()));
      const rate = (v: number[]) => v.reduce((a, b) => a + b, 0) / n;
      const estimate = rate(synthesis) - Math.max(...members.map(rate));
      const i = councilVsBestInterval(synthesis, members, { draws: 200, seed: r });
      expect(i.lower).toBeGreaterThanOrEqual(-1);
      expect(i.upper).toBeLessThanOrEqual(1);
      expect(i.lower).toBeLessThanOrEqual(estimate + 1e-12);
      expect(i.upper).toBeGreaterThanOrEqual(estimate - 1e-12);
      expect(councilVsBestInterval(synthesis, [...members].reverse(), { draws: 200, seed: r })).toEqual(i);
    }
  });

  it('gives a member that never differs from the synthesis an interval, not [0, 0]', () => {
    // No item differs: only the half-items do, d = 0, se = √(0 + 0 + 1 − 0)/12 = 1/12; ±1.95996/12 = ±0.163330.
    const i = councilVsBestInterval(council, [council], options);
    expect(i.lower).toBeCloseTo(-0.16333, 5);
    expect(i.upper).toBeCloseTo(0.16333, 5);
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
