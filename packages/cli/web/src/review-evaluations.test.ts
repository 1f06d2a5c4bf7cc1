import { describe, expect, it } from 'vitest';
import { applyRunEvent, initialRunState } from './run-state.js';
import { liveEvaluations } from './review-list.js';
import { reviewEvaluations, sessionReviews } from './session-view-model.js';
import type { SessionDocument, Stage2Result } from './types.js';

const review: Stage2Result = {
  reviewer: 'a',
  model: 'test/a',
  // It saw c as Response A, its own answer as Response B, b as Response C.
  order: ['c', 'a', 'b'],
  labelToModel: {
    'Response A': { model: 'c', displayIndex: 0 },
    'Response B': { model: 'a', displayIndex: 1 },
    'Response C': { model: 'b', displayIndex: 2 },
  },
  evaluation: {
    ranking: ['c', 'b'],
    scores: { c: 8, a: 6, b: 4 },
    critiques: {
      c: { strengths: '**Clear** plan', weaknesses: '  ' },
      b: { strengths: 'short', weaknesses: 'no tests' },
    },
    abstained: false,
  },
  error: null,
};

const session = {
  stage1: [
    { member: 'a', model: 'test/a', text: 'A', latencyMs: 1, error: null },
    { member: 'b', model: 'test/b', text: 'B', latencyMs: 1, error: null },
    { member: 'c', model: 'test/c', text: 'C', latencyMs: 1, error: null },
  ],
  stage2: [review],
} as unknown as SessionDocument;

describe('reviewEvaluations: what a reviewer said of each answer, as history show --show reviews prints it', () => {
  it('follows the order it saw, names each member with its label, marks its own, keeps blank critiques out', () => {
    expect(reviewEvaluations(session, review)).toEqual([
      { member: 'c', label: 'Response A', own: false, score: 8, strengths: '**Clear** plan', weaknesses: null },
      { member: 'a', label: 'Response B', own: true, score: 6, strengths: null, weaknesses: null },
      { member: 'b', label: 'Response C', own: false, score: 4, strengths: 'short', weaknesses: 'no tests' },
    ]);
  });

  it('without the order (older sessions), takes the stage-1 order of the answers it scored or critiqued', () => {
    const { order: _order, ...older } = review;
    expect(reviewEvaluations(session, older).map((e) => e.member)).toEqual(['a', 'b', 'c']);
  });

  it('a failed review has none; sessionReviews carries them beside the ranking', () => {
    expect(reviewEvaluations(session, { ...review, evaluation: null })).toEqual([]);
    const [first] = sessionReviews(session);
    expect(first?.ranking).toEqual(['Response A: c', 'Response C: b']);
    expect(first?.evaluations).toHaveLength(3);
    // Its reply as written comes along when the session kept it; a document without it gives null.
    expect(first?.text).toBeNull();
    expect(sessionReviews({ ...session, stage2: [{ ...review, text: '### Response A' }] })[0]?.text).toBe(
      '### Response A',
    );
  });

  it('a streamed review shows its scores by label, in label order', () => {
    expect(liveEvaluations({ 'Response B': 7, 'Response A': 9 })).toEqual([
      { member: null, label: 'Response A', own: false, score: 9, strengths: null, weaknesses: null },
      { member: null, label: 'Response B', own: false, score: 7, strengths: null, weaknesses: null },
    ]);
    expect(liveEvaluations(null)).toEqual([]);
  });
});

describe('a streamed review in the run state', () => {
  it('keeps its critiques by label, and the live block shows them beside the scores', () => {
    const state = applyRunEvent(initialRunState(), {
      id: '1',
      event: 'review',
      data: JSON.stringify({
        reviewer: 'b',
        model: 'test/b',
        ranking: ['Response A', 'Response B'],
        scores: { 'Response A': 9, 'Response B': 7 },
        critiques: { 'Response A': { strengths: '**tested**', weaknesses: '' } },
      }),
    });
    const live = state.reviews[0]!;
    expect(liveEvaluations(live.scores, live.critiques)).toEqual([
      { member: null, label: 'Response A', own: false, score: 9, strengths: '**tested**', weaknesses: null },
      { member: null, label: 'Response B', own: false, score: 7, strengths: null, weaknesses: null },
    ]);
  });
});
