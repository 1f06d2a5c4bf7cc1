import { observationsToColumns } from '@council/bias-audit';
import type { BiasObservation } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { withinSessionLengthPoints } from './within-session-length-points.js';

function obs(
  sessionId: string,
  spec: { reviewer: string; candidate: string; length: number; score: number | null },
): BiasObservation {
  return {
    sessionId,
    timestamp: sessionId === 's1' ? '2026-11-01T00:00:00Z' : '2026-11-02T00:00:00Z',
    reviewer: spec.reviewer,
    candidate: spec.candidate,
    position: 0,
    responseLengthChars: spec.length,
    score: spec.score,
    rankPosition: null,
    configVersion: null,
    queryCategory: null,
  };
}

describe('withinSessionLengthPoints', () => {
  // Session 1: a (1,000 chars) scored 4 and 6 → 5; b (2,000) 7 and 7 → 7; c (3,000) 6 and unscored → 6.
  // Means over the answers: 2,000 chars and 6 points, so the points are (−1,000, −1), (0, +1), (+1,000, 0).
  // Session 2 has one scored answer (d's only score is missing): nothing to compare within it.
  const columns = observationsToColumns([
    obs('s1', { reviewer: 'r1', candidate: 'a', length: 1000, score: 4 }),
    obs('s1', { reviewer: 'r2', candidate: 'a', length: 1000, score: 6 }),
    obs('s1', { reviewer: 'r1', candidate: 'b', length: 2000, score: 7 }),
    obs('s1', { reviewer: 'r2', candidate: 'b', length: 2000, score: 7 }),
    obs('s1', { reviewer: 'r1', candidate: 'c', length: 3000, score: 6 }),
    obs('s1', { reviewer: 'r2', candidate: 'c', length: 3000, score: null }),
    obs('s2', { reviewer: 'r1', candidate: 'a', length: 500, score: 3 }),
    obs('s2', { reviewer: 'r1', candidate: 'd', length: 900, score: null }),
  ]);

  it('gives one point per scored answer: its length and mean score less the session means over answers', () => {
    const { points, total } = withinSessionLengthPoints(columns, 100);
    expect(total).toBe(3);
    expect([...points].sort((p, q) => p.x - q.x)).toEqual([
      { x: -1000, y: -1 },
      { x: 0, y: 1 },
      { x: 1000, y: 0 },
    ]);
  });

  it('thins evenly to at most maxPoints and still counts every answer', () => {
    const { points, total } = withinSessionLengthPoints(columns, 2);
    expect(total).toBe(3);
    expect(points).toHaveLength(2);
  });
});
