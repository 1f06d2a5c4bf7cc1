import { observationsToColumns } from '@council/bias-audit';
import type { BiasColumns, BiasObservation } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { describeUnreadSessions, leaveOutUnreadSessions } from './leave-out-unread-sessions.js';

/** One session: each reviewer's view of each candidate; `judged` false writes what an unread review wrote (no score, no rank). */
function session(options: {
  id: string;
  at: string;
  reviewers: string[];
  candidates: string[];
  judged: boolean;
  configVersion?: string;
  category?: string;
}): BiasObservation[] {
  return options.reviewers.flatMap((reviewer) =>
    options.candidates.map((candidate, position) => ({
      sessionId: options.id,
      timestamp: options.at,
      reviewer,
      candidate,
      position,
      responseLengthChars: 100 * (position + 1),
      score: options.judged ? 9 - position : null,
      rankPosition: options.judged ? position : null,
      configVersion: options.configVersion ?? '1.0.0',
      queryCategory: options.category ?? 'coding',
    })),
  );
}

const readableA = session({
  id: 'a',
  at: '2026-11-01T10:00:00Z',
  reviewers: ['m/x', 'm/y'],
  candidates: ['m/x', 'm/y'],
  judged: true,
});
// Unread, with a model, a config version and a category that no other session has.
const unreadB = session({
  id: 'b',
  at: '2026-11-01T11:00:00Z',
  reviewers: ['m/ghost', 'm/x'],
  candidates: ['m/ghost', 'm/x'],
  judged: false,
  configVersion: '9.9.9',
  category: 'math',
});
const readableC = session({
  id: 'c',
  at: '2026-11-01T12:00:00Z',
  reviewers: ['m/x', 'm/y', 'm/z'],
  candidates: ['m/x', 'm/y', 'm/z'],
  judged: true,
  category: 'writing',
});
const unreadD = session({
  id: 'd',
  at: '2026-11-01T13:00:00Z',
  reviewers: ['m/y', 'm/z'],
  candidates: ['m/y', 'm/z'],
  judged: false,
});

describe('leaveOutUnreadSessions', () => {
  it('gives the columns of the store without the sessions no review of which was read, lists and indices renumbered', () => {
    const { columns, unread } = leaveOutUnreadSessions(
      observationsToColumns([...readableA, ...unreadB, ...readableC, ...unreadD]),
    );
    // b: 2 reviewers × 2 candidates, d: 2 × 2.
    expect(unread).toEqual({ sessions: 2, records: 8, sessionIds: ['b', 'd'] });
    // The reference: the same records without b and d, as columns built from scratch.
    expect(columns).toEqual(observationsToColumns([...readableA, ...readableC]));
    expect(columns.models).toEqual(['m/x', 'm/y', 'm/z']);
    expect(columns.configVersions).toEqual(['1.0.0']);
    expect(columns.queryCategories).toEqual(['coding', 'writing']);
  });

  it("takes an engine's report read (no session, time, query category or display-order column) and gives one back", () => {
    const lean = (columns: BiasColumns): BiasColumns => {
      const { session: _s, time: _t, queryCategory: _q, positionIsDisplayOrder: _p, ...rest } = columns;
      return rest;
    };
    const full = observationsToColumns([...readableA, ...unreadB, ...readableC, ...unreadD]);
    const { columns, unread } = leaveOutUnreadSessions(lean(full));
    expect(unread).toEqual({ sessions: 2, records: 8, sessionIds: ['b', 'd'] });
    // The reference's columns without the four; the query categories, which no column indexes now, as the read gave them.
    expect(columns).toEqual({
      ...lean(observationsToColumns([...readableA, ...readableC])),
      queryCategories: full.queryCategories,
    });
  });

  it('keeps a session in which one record has a score or a rank, and returns the same columns when nothing is left out', () => {
    const oneScore = unreadD.map((o, i) => (i === 3 ? { ...o, score: 4 } : o));
    const oneRank = unreadB.map((o, i) => (i === 0 ? { ...o, rankPosition: 1 } : o));
    const input = observationsToColumns([...readableA, ...oneRank, ...oneScore]);
    const out = leaveOutUnreadSessions(input);
    expect(out.unread).toEqual({ sessions: 0, records: 0, sessionIds: [] });
    expect(out.columns).toBe(input);
  });

  it('leaves out every session when none was read', () => {
    const { columns, unread } = leaveOutUnreadSessions(observationsToColumns([...unreadB, ...unreadD]));
    expect(unread.sessionIds).toEqual(['b', 'd']);
    expect(columns.length).toBe(0);
    expect(columns.sessionIds).toEqual([]);
    expect([...columns.sessionStart]).toEqual([0]);
    expect(columns.models).toEqual([]);
  });

  it('names at most ten ids in its sentence', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    expect(describeUnreadSessions({ sessions: 1, records: 4, sessionIds: ['s0'] })).toBe(
      '1 session left out: no review could be read (ids s0).',
    );
    expect(describeUnreadSessions({ sessions: 12, records: 48, sessionIds: ids })).toBe(
      '12 sessions left out: no review could be read (ids s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, and 2 more).',
    );
  });
});
