import type { CouncilSession } from '@council/core';
import { describe, expect, it } from 'vitest';
import { bordaLeader } from './contribution-records-from-session.js';

type Entry = CouncilSession['leaderboard'][number];
const entry = (candidate: string, finalRank: number, voteCount = 2): Entry => ({
  candidate,
  finalRank,
  voteCount,
  bordaScore: 0,
  bordaPoints: 0,
  winCount: 0,
  confidence: 'high',
});

describe('bordaLeader', () => {
  it('is the one member at rank 1, and nobody on a tie for first or without votes', () => {
    expect(bordaLeader({ leaderboard: [entry('a', 1), entry('b', 2)] })).toBe('a');
    expect(bordaLeader({ leaderboard: [entry('a', 1), entry('b', 1), entry('c', 3)] })).toBeNull();
    expect(bordaLeader({ leaderboard: [entry('a', 1, 0)] })).toBeNull();
    expect(bordaLeader({ leaderboard: [] })).toBeNull();
  });
});
