import { describe, expect, it } from 'vitest';
import { applyRunEvent, initialRunState, stageProgressText } from './run-state.js';
import type { RunState } from './run-state.js';
import { deanonymiseRanking, displayedAnswer, sessionReviews, votingWinner } from './session-view-model.js';
import type { SessionDocument } from './types.js';

function fold(events: [string, unknown][]): RunState {
  return events.reduce(
    (state, [event, data], i) => applyRunEvent(state, { id: String(i + 1), event, data: JSON.stringify(data) }),
    initialRunState(),
  );
}

function session(overrides: Partial<SessionDocument> = {}): SessionDocument {
  return {
    sessionId: 's-1',
    timestamp: '2026-01-02T03:04:05.000Z',
    config: { members: ['a', 'b', 'c'], chairman: 'c', strategy: 'balanced', mode: 'consensus', goal: null },
    stage1: [
      { member: 'a', model: 'test/a', text: 'Answer A', latencyMs: 10, error: null },
      { member: 'b', model: 'test/b', text: 'Answer B', latencyMs: 10, error: null },
      {
        member: 'c',
        model: 'test/c',
        text: null,
        latencyMs: 10,
        error: { reason: 'timeout', code: 'TIMEOUT', message: 'too slow' },
      },
    ],
    stage2: [
      {
        reviewer: 'a',
        model: 'test/a',
        labelToModel: { 'Response A': { model: 'b', displayIndex: 0 }, 'Response B': { model: 'a', displayIndex: 1 } },
        evaluation: { ranking: ['b', 'a'], scores: { b: 9, a: 7 }, abstained: false },
        error: null,
      },
    ],
    leaderboard: [
      { candidate: 'b', bordaScore: 1, finalRank: 1, winCount: 1 },
      { candidate: 'a', bordaScore: 0, finalRank: 2, winCount: 0 },
    ],
    synthesis: {
      text: 'The synthesis.',
      contributors: [
        { id: 'a', weight: 0.6 },
        { id: 'b', weight: 0.4 },
      ],
      winner: null,
      winnerSource: null,
      strategy: 'balanced',
      mode: 'consensus',
      model: 'test/c',
      warnings: [],
    },
    excluded: [],
    usage: { tokens: 10, costUsd: null },
    warnings: [],
    ...overrides,
  };
}

describe('applyRunEvent', () => {
  it('follows stages, answers in arrival order, failures, reviews and the synthesis pieces', () => {
    const state = fold([
      ['stage-started', { stage: 1, calls: 2 }],
      ['model-started', { stage: 1, member: 'a', model: 'test/a' }],
      ['model-started', { stage: 1, member: 'b', model: 'test/b' }],
      ['answer', { member: 'b', model: 'test/b', text: 'B says', latencyMs: 1200 }],
      ['model-failed', { stage: 1, member: 'a', model: 'test/a', reason: 'timeout', message: 'no answer in 60 s' }],
      ['stage-finished', { stage: 1, succeeded: 1, failed: 1 }],
      ['stage-started', { stage: 2, calls: 1 }],
      ['review', { reviewer: 'b', model: 'test/b', ranking: ['Response B', 'Response A'], scores: null }],
      ['stage-started', { stage: 3, calls: 1 }],
      ['synthesis-text', { chairman: 'c', text: 'Hel' }],
      ['synthesis-text', { chairman: 'c', text: 'lo' }],
    ]);
    expect(state.stages[1]).toEqual({ status: 'finished', calls: 2, succeeded: 1, failed: 1 });
    expect(state.stages[2].status).toBe('running');
    expect(state.answers.map((a) => [a.member, a.status, a.text])).toEqual([
      ['a', 'failed', null],
      ['b', 'answered', 'B says'],
    ]);
    expect(state.answers[0]?.failure).toBe('timeout: no answer in 60 s');
    expect(state.reviews).toEqual([
      { reviewer: 'b', model: 'test/b', ranking: ['Response B', 'Response A'], scores: null },
    ]);
    expect(state.synthesis).toBe('Hello');
    expect(state.synthesisPieces).toBe(2);
    expect(state.chairman).toBe('c');
    expect(state.status).toBe('running');
  });

  it('ends with the session, or cancelled, or failed with the error', () => {
    expect(
      fold([
        ['session', { session: session(), saved: null }],
        ['done', { status: 'finished' }],
      ]).session?.sessionId,
    ).toBe('s-1');
    expect(
      fold([
        ['cancelled', {}],
        ['done', { status: 'cancelled' }],
      ]).status,
    ).toBe('cancelled');
    const failed = fold([
      ['error', { code: 'QUORUM', message: 'quorum not met' }],
      ['done', { status: 'failed' }],
    ]);
    expect([failed.status, failed.error?.message]).toEqual(['failed', 'quorum not met']);
  });

  it('ignores unknown event types and data that is not JSON', () => {
    const before = initialRunState();
    expect(applyRunEvent(before, { id: '1', event: 'something-new', data: '{}' })).toBe(before);
    expect(applyRunEvent(before, { id: '1', event: 'answer', data: 'not json' })).toBe(before);
  });
});

describe('stage progress (issue 30 item 14: "Answers 4 running" after three answered)', () => {
  it('counts the calls done while a stage runs, then shows the stage totals', () => {
    const events: [string, Record<string, unknown>][] = [
      ['stage-started', { stage: 1, calls: 4 }],
      ...['a', 'b', 'c', 'd'].map((m): [string, Record<string, unknown>] => [
        'model-started',
        { stage: 1, member: m, model: m },
      ]),
    ];
    expect(stageProgressText(fold(events).stages[1])).toBe('4 running');
    const finished = (m: string): [string, Record<string, unknown>] => [
      'model-finished',
      { stage: 1, member: m, model: m, latencyMs: 900 },
    ];
    events.push(finished('a'), finished('b'), finished('c'));
    expect(stageProgressText(fold(events).stages[1])).toBe('3 of 4 done, 1 running');
    events.push(['model-failed', { stage: 1, member: 'd', model: 'd', reason: 'timeout', message: 'no answer' }]);
    expect(stageProgressText(fold(events).stages[1])).toBe('3 of 4 done, 1 failed');
    events.push(['stage-finished', { stage: 1, succeeded: 3, failed: 1 }]);
    expect(stageProgressText(fold(events).stages[1])).toBe('3 ok, 1 failed');
    expect(stageProgressText(fold(events).stages[2])).toBe('waiting');
  });
});

describe('the session view', () => {
  it('de-anonymises a streamed ranking with the reviewer’s labelToModel once the session is known', () => {
    const review = { reviewer: 'a', ranking: ['Response A', 'Response B'] };
    expect(deanonymiseRanking(null, review)).toEqual(['Response A', 'Response B']);
    expect(deanonymiseRanking(session(), review)).toEqual(['Response A: b', 'Response B: a']);
    expect(sessionReviews(session())[0]?.ranking).toEqual(['Response A: b', 'Response B: a']);
  });

  it('shows the synthesis with its contributors in Consensus, and the winner’s own answer in Voting', () => {
    const s = session();
    expect(displayedAnswer(s, 'consensus')).toMatchObject({
      text: 'The synthesis.',
      contributors: [
        { id: 'a', weight: 0.6 },
        { id: 'b', weight: 0.4 },
      ],
      winner: null,
    });
    // No named winner: the Borda leader b.
    expect(votingWinner(s)).toBe('b');
    expect(displayedAnswer(s, 'voting')).toMatchObject({ text: 'Answer B', winner: 'b', contributors: null });
    // The chairman's named winner comes first.
    const named = session({ synthesis: { ...s.synthesis!, mode: 'voting', winner: 'a', winnerSource: 'chairman' } });
    expect(displayedAnswer(named, 'voting')).toMatchObject({ text: 'Answer A', winner: 'a' });
  });

  it('says why there is nothing to show', () => {
    expect(displayedAnswer(session({ synthesis: null }), 'consensus').missing).toBe(
      'No synthesis: no chairman answered.',
    );
    expect(displayedAnswer(session({ leaderboard: [], synthesis: null }), 'voting').missing).toBe(
      'No winner: no member was ranked.',
    );
  });
});
