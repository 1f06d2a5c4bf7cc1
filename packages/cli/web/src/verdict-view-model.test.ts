import { describeReason } from '@council/core';
import type { SessionVerdict } from '@council/core';
import { describe, expect, it } from 'vitest';
import { signedMargin, verdictReasonText } from './verdict-view-model.js';

function verdict(patch: Partial<SessionVerdict>): SessionVerdict {
  return {
    mode: 'binary',
    decision: 'approve',
    reason: 'majority',
    margin: 1 / 3,
    minMargin: 0.1,
    quorum: 2,
    approveWeight: 3,
    rejectWeight: 1.5,
    unclearWeight: 0,
    totalWeight: 4.5,
    votes: [
      {
        member: 'a',
        model: 'a',
        decision: 'approve',
        read: 'json',
        confidence: 0.8,
        reasons: [],
        weight: 1.5,
        bordaScore: 0.5,
        reviewerFlags: [],
      },
      {
        member: 'b',
        model: 'b',
        decision: 'approve',
        read: 'json',
        confidence: 0.8,
        reasons: [],
        weight: 1.5,
        bordaScore: 0.5,
        reviewerFlags: [],
      },
      {
        member: 'c',
        model: 'c',
        decision: 'reject',
        read: 'json',
        confidence: null,
        reasons: [],
        weight: 1.5,
        bordaScore: 0.5,
        reviewerFlags: [],
      },
    ],
    pivotal: ['a', 'b'],
    flipSensitive: true,
    chairmanDecision: 'approve',
    rationale: null,
    dissent: null,
    warnings: [],
    ...patch,
  };
}

describe('the verdict in words on the serve page', () => {
  it('writes the margin with its sign as the terminal does: +0.33, −1.00, +0.00', () => {
    expect(signedMargin(1 / 3)).toBe('+0.33');
    expect(signedMargin(-1)).toBe('−1.00');
    expect(signedMargin(0)).toBe('+0.00');
  });

  it('says why the rule decided: (3 − 1.5) / 4.5 = +0.33 is a weighted majority', () => {
    expect(verdictReasonText(verdict({}))).toBe('weighted majority, margin +0.33');
    const one = verdict({
      reason: 'no-quorum',
      decision: 'unclear',
      votes: verdict({}).votes.map((v) => (v.member === 'c' ? v : { ...v, decision: 'unclear' as const })),
    });
    expect(verdictReasonText(one)).toBe('only 1 member decided approve or reject; the quorum is 2');
  });

  it("in every case in the words of core's describeReason, which ask and the gate print", () => {
    const cases: Partial<SessionVerdict>[] = [
      { reason: 'majority', margin: -0.6 },
      { reason: 'tie', decision: 'unclear', margin: 0 },
      { reason: 'tie-breaker', mode: 'tie-breaker', margin: 0 },
      { reason: 'below-margin', decision: 'unclear', margin: 0.05, minMargin: 0.2 },
      { reason: 'no-quorum', decision: 'unclear', quorum: 4 },
      {
        reason: 'no-quorum',
        decision: 'unclear',
        votes: verdict({}).votes.map((v) => ({ ...v, decision: 'unclear' as const })),
      },
    ];
    for (const patch of cases) {
      const v = verdict(patch);
      const decided = v.votes.filter((x) => x.decision === 'approve' || x.decision === 'reject').length;
      expect(verdictReasonText(v), v.reason).toBe(describeReason({ ...v, decided }, v));
    }
  });
});
