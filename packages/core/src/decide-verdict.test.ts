import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decideVerdict, juryWeight, pivotalJurors } from './decide-verdict.js';
import type { DecideVerdictOptions, JurorVote } from './decide-verdict.js';

const vote = (member: string, decision: JurorVote['decision'], weight = 1): JurorVote => ({ member, decision, weight });
const rule = (votes: JurorVote[], more: Partial<DecideVerdictOptions> = {}): DecideVerdictOptions => ({
  votes,
  mode: 'binary',
  minMargin: 0.1,
  quorum: 2,
  ...more,
});

describe('juryWeight', () => {
  it('is 1 + the Borda score for a member with votes, and 1 without votes', () => {
    expect(juryWeight({ bordaScore: 1, voteCount: 2 })).toBe(2);
    expect(juryWeight({ bordaScore: 0.5, voteCount: 2 })).toBe(1.5);
    expect(juryWeight({ bordaScore: 0, voteCount: 2 })).toBe(1);
    expect(juryWeight({ bordaScore: 0.7, voteCount: 0 })).toBe(1);
    expect(juryWeight(undefined)).toBe(1);
  });
});

describe('decideVerdict (hand-worked)', () => {
  it('unanimous approve with Borda weights 2, 1.5, 1: margin +1, and no single flip changes it', () => {
    // A = 4.5, R = 0, T = 4.5 → margin 1. Flipping the heaviest: A = 2.5, R = 2, margin 0.5/4.5 = 0.111 ≥ 0.1.
    const options = rule([vote('a', 'approve', 2), vote('b', 'approve', 1.5), vote('c', 'approve', 1)]);
    const tally = decideVerdict(options);
    expect(tally).toMatchObject({ decision: 'approve', reason: 'majority', margin: 1, totalWeight: 4.5, decided: 3 });
    expect(pivotalJurors(options)).toEqual([]);
  });

  it('a split where the peer review outweighs the head count: 1 approve (2) against 2 rejects (1.5 + 1)', () => {
    // A = 2, R = 2.5, T = 4.5 → margin −0.5/4.5 = −0.111 → reject. b or c turning approve gives A ≥ 3 > R: both pivotal;
    // a turning reject only makes it unanimous.
    const options = rule([vote('a', 'approve', 2), vote('b', 'reject', 1.5), vote('c', 'reject', 1)]);
    const tally = decideVerdict(options);
    expect(tally.decision).toBe('reject');
    expect(tally.margin).toBeCloseTo(-1 / 9, 12);
    expect(pivotalJurors(options)).toEqual(['b', 'c']);
  });

  it('the same head count with equal weights: 2 approve against 1 reject approves by 1/3', () => {
    const tally = decideVerdict(rule([vote('a', 'approve'), vote('b', 'approve'), vote('c', 'reject')]));
    expect(tally).toMatchObject({ decision: 'approve', reason: 'majority' });
    expect(tally.margin).toBeCloseTo(1 / 3, 12);
  });

  it('an exact tie is unclear in binary mode, and the chairman breaks it in tie-breaker mode', () => {
    const votes = [vote('a', 'approve', 1.5), vote('b', 'reject', 1.5), vote('c', 'unclear', 1)];
    expect(decideVerdict(rule(votes, { chairmanDecision: 'reject' }))).toMatchObject({
      decision: 'unclear',
      reason: 'tie',
      margin: 0,
    });
    expect(decideVerdict(rule(votes, { mode: 'tie-breaker', chairmanDecision: 'reject' }))).toMatchObject({
      decision: 'reject',
      reason: 'tie-breaker',
    });
    // A chairman that is unclear itself, or failed, leaves the tie.
    expect(decideVerdict(rule(votes, { mode: 'tie-breaker', chairmanDecision: 'unclear' })).reason).toBe('tie');
    expect(decideVerdict(rule(votes, { mode: 'tie-breaker', chairmanDecision: null })).reason).toBe('tie');
  });

  it('a failed member has no vote: 2 approvals and a failure approve with margin 1', () => {
    const tally = decideVerdict(rule([vote('a', 'approve'), vote('b', 'approve'), vote('c', null, 5)]));
    expect(tally).toMatchObject({ decision: 'approve', margin: 1, totalWeight: 2, decided: 2 });
  });

  it('fewer decided members than the quorum is unclear, however lopsided', () => {
    const tally = decideVerdict(rule([vote('a', 'approve'), vote('b', 'unclear'), vote('c', null)]));
    expect(tally).toMatchObject({ decision: 'unclear', reason: 'no-quorum', decided: 1 });
    expect(tally.margin).toBeCloseTo(0.5, 12);
  });

  it('a margin below the threshold is unclear: 3 approve (1 each) against 2 reject (1.25 each), margin 0.5/5.5', () => {
    const votes = [
      vote('a', 'approve'),
      vote('b', 'approve'),
      vote('c', 'approve'),
      vote('d', 'reject', 1.25),
      vote('e', 'reject', 1.25),
    ];
    const tally = decideVerdict(rule(votes));
    expect(tally.margin).toBeCloseTo(0.5 / 5.5, 12);
    expect(tally).toMatchObject({ decision: 'unclear', reason: 'below-margin' });
    expect(decideVerdict(rule(votes, { minMargin: 0.05 })).decision).toBe('approve');
  });

  it('one flip: with 2 approve against 1 reject (equal weights) either approver is pivotal, the rejecter is not', () => {
    // Flipping a or b gives 1 approve against 2 rejects (reject); the rejecter turning approve makes it unanimous.
    const options = rule([vote('a', 'approve'), vote('b', 'approve'), vote('c', 'reject')]);
    expect(pivotalJurors(options)).toEqual(['a', 'b']);
  });

  it('an unclear juror is pivotal when deciding either way would change the verdict', () => {
    // Tie 1 : 1 with c unclear → unclear (tie). c deciding approve gives approve: pivotal. A failed member never is.
    const options = rule([vote('a', 'approve'), vote('b', 'reject'), vote('c', 'unclear'), vote('d', null)]);
    expect(decideVerdict(options).reason).toBe('tie');
    expect(pivotalJurors(options)).toEqual(['a', 'b', 'c']);
  });

  it('the votes’ order does not change the tally', () => {
    const votes = [vote('a', 'approve', 2), vote('b', 'reject', 1.5), vote('c', 'reject', 1)];
    expect(decideVerdict(rule([...votes].reverse()))).toEqual(decideVerdict(rule(votes)));
  });
});

describe('decideVerdict (properties)', () => {
  const decisionArb = fc.constantFrom<JurorVote['decision']>('approve', 'reject', 'unclear', null);
  const votesArb = fc.array(fc.record({ decision: decisionArb, weight: fc.double({ min: 1, max: 2, noNaN: true }) }), {
    minLength: 1,
    maxLength: 9,
  });
  const mirror = (d: JurorVote['decision']) => (d === 'approve' ? 'reject' : d === 'reject' ? 'approve' : d);
  const options = fc.record({
    minMargin: fc.double({ min: 0, max: 1, noNaN: true }),
    quorum: fc.integer({ min: 1, max: 5 }),
    mode: fc.constantFrom<'binary' | 'tie-breaker'>('binary', 'tie-breaker'),
  });

  it('keeps the margin in [−1, 1], and a mirrored jury (approve ↔ reject) mirrors the verdict', () => {
    fc.assert(
      fc.property(votesArb, options, (raw, more) => {
        const votes = raw.map((v, i) => vote(`m${i}`, v.decision, v.weight));
        const tally = decideVerdict({ votes, ...more });
        expect(tally.margin).toBeGreaterThanOrEqual(-1);
        expect(tally.margin).toBeLessThanOrEqual(1);
        const mirrored = decideVerdict({ votes: votes.map((v) => ({ ...v, decision: mirror(v.decision) })), ...more });
        expect(mirrored.decision).toBe(mirror(tally.decision));
        expect(mirrored.margin).toBeCloseTo(-tally.margin, 12);
      }),
    );
  });

  // Weights lie in [1, 2], so one juror weighs at most two others together: in a jury of three or more, one flip of a
  // unanimous approve leaves approve ≥ reject. (With two jurors it can reach reject: weights 1.4 and 1.)
  it('a unanimous approve of three or more approves, and no single flip of it can reach reject', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 2, noNaN: true }), { minLength: 3, maxLength: 9 }), (weights) => {
        const votes = weights.map((w, i) => vote(`m${i}`, 'approve', w));
        const rule = { votes, mode: 'binary' as const, minMargin: 0.1, quorum: 2 };
        expect(decideVerdict(rule)).toMatchObject({ decision: 'approve', margin: 1 });
        for (const j of votes.keys()) {
          const flipped = votes.map((v, i) => (i === j ? { ...v, decision: 'reject' as const } : v));
          expect(decideVerdict({ ...rule, votes: flipped }).decision).not.toBe('reject');
        }
      }),
    );
  });

  it('a juror is pivotal exactly when changing its vote alone changes the verdict', () => {
    fc.assert(
      fc.property(votesArb, options, (raw, more) => {
        const votes = raw.map((v, i) => vote(`m${i}`, v.decision, v.weight));
        const base = decideVerdict({ votes, ...more }).decision;
        const pivotal = pivotalJurors({ votes, ...more });
        for (const [i, v] of votes.entries()) {
          if (v.decision === null) {
            expect(pivotal).not.toContain(v.member);
            continue;
          }
          const changes = (['approve', 'reject', 'unclear'] as const)
            .filter((d) => d !== v.decision && !(v.decision !== 'unclear' && d === 'unclear'))
            .some(
              (d) =>
                decideVerdict({ votes: votes.map((w, k) => (k === i ? { ...w, decision: d } : w)), ...more })
                  .decision !== base,
            );
          expect(pivotal.includes(v.member)).toBe(changes);
        }
      }),
    );
  });
});
