import type { Stage2Result } from '@council/core';
import { describe, expect, it } from 'vitest';
import { reviewEvent } from './stream-event.js';

// A reviewer that saw c as Response A and b as Response B (its own answer a was not shown).
const review = {
  reviewer: 'a',
  model: 'test/a',
  order: ['c', 'b'],
  labelToModel: { 'Response A': { model: 'c', displayIndex: 0 }, 'Response B': { model: 'b', displayIndex: 1 } },
  evaluation: {
    ranking: ['b', 'c'],
    scores: { b: 8, c: 5 },
    critiques: { b: { strengths: 'tested', weaknesses: 'long' }, c: { strengths: 'short', weaknesses: 'vague' } },
    abstained: false,
    format: 'json',
  },
  text: 'the review',
  warnings: [],
  usage: null,
  latencyMs: 1,
  error: null,
} as unknown as Stage2Result;

describe('reviewEvent: a review as it streams, under the labels the reviewer saw', () => {
  it('carries the ranking, the scores and the critiques by label, never the members behind them', () => {
    expect(reviewEvent(review)).toEqual({
      type: 'review',
      data: {
        reviewer: 'a',
        model: 'test/a',
        ranking: ['Response B', 'Response A'],
        scores: { 'Response B': 8, 'Response A': 5 },
        critiques: {
          'Response B': { strengths: 'tested', weaknesses: 'long' },
          'Response A': { strengths: 'short', weaknesses: 'vague' },
        },
      },
    });
  });

  it('a failed review streams no scores and no critiques', () => {
    expect(
      reviewEvent({ ...review, evaluation: null, error: { reason: 'timeout', code: null, message: 'slow' } }).data,
    ).toMatchObject({ ranking: [], scores: null, critiques: null });
  });
});
