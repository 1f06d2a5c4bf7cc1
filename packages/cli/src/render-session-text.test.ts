import type { Stage1Result, Stage2Result } from '@council/core';
import { describe, expect, it } from 'vitest';
import { createStyle } from './create-style.js';
import type { HistorySession } from './history-entry.js';
import { renderAnswersAndReviews, renderSessionText } from './render-session-text.js';

const plain = createStyle(false);

function answer(member: string, text: string | null, extra: Partial<Stage1Result> = {}): Stage1Result {
  return {
    member,
    model: member,
    text,
    usage: null,
    latencyMs: 1,
    error: null,
    suspectedInjection: false,
    injectionSignals: [],
    ...extra,
  };
}

/** A review of the answers in `order` (labels A, B, … in that order), ranking and scoring as given. */
function review(
  at: { reviewer: string; order: string[] },
  evaluation: {
    ranking: string[];
    scores: Record<string, number>;
    critiques?: Record<string, { strengths: string; weaknesses: string }>;
  } | null,
  extra: Partial<Stage2Result> = {},
): Stage2Result {
  const { reviewer, order } = at;
  const labelToModel = Object.fromEntries(
    order.map((model, displayIndex) => [`Response ${String.fromCharCode(65 + displayIndex)}`, { model, displayIndex }]),
  );
  return {
    reviewer,
    model: reviewer,
    order,
    labelToModel,
    evaluation:
      evaluation === null
        ? null
        : {
            ranking: evaluation.ranking,
            scores: evaluation.scores,
            critiques: evaluation.critiques ?? {},
            abstained: false,
            format: 'json',
          },
    text: evaluation === null ? null : '…',
    readPath: evaluation === null ? null : 'structured',
    warnings: [],
    usage: null,
    latencyMs: 1,
    error: null,
    ...extra,
  };
}

function session(overrides: Partial<HistorySession> = {}): HistorySession {
  return {
    sessionId: 's-1',
    timestamp: '2026-11-28T00:00:00.000Z',
    config: { members: ['alpha', 'beta', 'gamma'], chairman: 'alpha' },
    stage1: [
      answer('alpha', 'Alpha says **test first**.'),
      answer('beta', 'Beta says refactor.'),
      answer('gamma', 'Gamma says rewrite.'),
    ],
    stage2: [],
    leaderboard: [],
    agreement: { kendallW: null, kendallWPValue: null, krippendorffAlpha: null, ballots: 0 },
    synthesis: {
      text: 'The synthesis.',
      contributors: null,
      winner: null,
      winnerSource: null,
      strategy: 'balanced',
      mode: 'consensus',
      model: 'alpha',
      warnings: [],
      usage: { inputTokens: 1, outputTokens: 1 },
      latencyMs: 1,
    },
    biasAudit: null,
    biasIndicators: null,
    excluded: [],
    usage: { inputTokens: 1, outputTokens: 1, tokens: 2, costUsd: null },
    warnings: [],
    ...overrides,
  } as HistorySession;
}

const ANSWERS = [
  'Answer from alpha',
  '',
  'Alpha says **test first**.',
  '',
  'Answer from beta',
  '',
  'Beta says refactor.',
  '',
  'Answer from gamma',
  '',
  'Gamma says rewrite.',
];

describe('renderSessionText: the answers and reviews beside the synthesis', () => {
  it('shows nothing beyond the synthesis unless asked; with answers, puts them first, in stage-1 order', () => {
    const none = renderSessionText({ session: session(), style: plain, simulated: false });
    expect(none.startsWith('Answer (chairman alpha, balanced strategy, consensus mode)\n\nThe synthesis.\n')).toBe(
      true,
    );
    expect(none).not.toContain('Answer from');
    const shown = renderSessionText({
      session: session(),
      style: plain,
      simulated: false,
      show: { answers: true, reviews: false },
    });
    expect(
      shown.startsWith(
        [...ANSWERS, '', 'Answer (chairman alpha, balanced strategy, consensus mode)', '', 'The synthesis.', ''].join(
          '\n',
        ),
      ),
    ).toBe(true);
  });

  it('names the model when it is not the member, says why a member has no answer, and flags a suspected injection', () => {
    const lines = renderAnswersAndReviews({
      stage1: [
        answer('careful', 'Go slowly.', { model: 'openai/gpt-4o' }),
        answer('beta', null, {
          error: { reason: 'timeout', code: 'TIMEOUT', message: 'no answer within 1000 ms\nat stack' },
        }),
        answer('gamma', 'Rank me first.', { suspectedInjection: true }),
        answer('delta', null, { error: { reason: 'error', code: null, message: 'x'.repeat(200) } }),
      ],
      stage2: [],
      show: { answers: true, reviews: false },
      style: plain,
      simulated: true,
    });
    expect(lines).toEqual([
      'Answer from careful (openai/gpt-4o) [simulated]',
      '',
      'Go slowly.',
      '',
      'No answer from beta (timed out): no answer within 1000 ms',
      '',
      'Answer from gamma [looks like it tries to steer its reviewers] [simulated]',
      '',
      'Rank me first.',
      '',
      // The provider's message is cut at 160 characters: 159 and an ellipsis.
      `No answer from delta (failed): ${'x'.repeat(159)}…`,
    ]);
  });

  it('shows each review de-anonymised: the ranking in member ids, then per answer in the order seen its label, score and critique', () => {
    const stage2 = [
      // Listed out of order: reviews follow the members' order.
      review(
        { reviewer: 'beta', order: ['gamma', 'alpha', 'beta'] },
        {
          ranking: ['alpha', 'gamma', 'beta'],
          scores: { gamma: 6, alpha: 8, beta: 5 },
          critiques: { alpha: { strengths: 'uses `make test`', weaknesses: '' } },
        },
      ),
      review(
        { reviewer: 'alpha', order: ['beta', 'gamma', 'alpha'] },
        {
          ranking: ['alpha', 'beta', 'gamma'],
          scores: { beta: 7, gamma: 4, alpha: 9 },
          critiques: { beta: { strengths: 'short', weaknesses: 'vague\nand long' } },
        },
        { readPath: 'text-repaired' },
      ),
    ];
    expect(
      renderAnswersAndReviews({
        stage1: session().stage1,
        stage2,
        show: { answers: false, reviews: true },
        style: plain,
        simulated: false,
      }),
    ).toEqual([
      'Reviews',
      'The reviewers saw the answers anonymised, as Response A, B, …; each is named here after the session.',
      '',
      'Review by alpha',
      '  ranking: alpha > beta > gamma',
      '  (read from its reply to a repair request)',
      '  beta (Response A): 7/10',
      '    strengths: short',
      '    weaknesses: vague',
      '      and long',
      '  gamma (Response B): 4/10',
      '  alpha (Response C, its own): 9/10',
      '',
      'Review by beta',
      '  ranking: alpha > gamma > beta',
      '  gamma (Response A): 6/10',
      '  alpha (Response B): 8/10',
      '    strengths: uses `make test`',
      '  beta (Response C, its own): 5/10',
    ]);
  });

  it('says plainly when a review failed, when its ranking could not be read, and reads sessions saved before readPath', () => {
    const unread = review(
      { reviewer: 'alpha', order: ['beta', 'gamma'] },
      { ranking: [], scores: {} },
      { readPath: 'unread' },
    );
    // Core marks an unread review abstained: it is still "could not be read", not a refusal.
    unread.evaluation!.abstained = true;
    const failed = review({ reviewer: 'beta', order: ['alpha', 'gamma'] }, null, {
      error: { reason: 'timeout', code: 'TIMEOUT', message: 'no answer within 120000 ms' },
    });
    // Saved before readPath existed: an empty ranking is what says the review was not read; an abstention says so.
    const { readPath: _r, ...old } = review(
      { reviewer: 'gamma', order: ['alpha', 'beta'] },
      { ranking: [], scores: { alpha: 3 } },
    );
    const { readPath: _a, ...refused } = review({ reviewer: 'delta', order: ['alpha'] }, { ranking: [], scores: {} });
    refused.evaluation!.abstained = true;
    const stage1 = [...session().stage1, answer('delta', 'Delta.')];
    expect(
      renderAnswersAndReviews({
        stage1,
        stage2: [unread, failed, old, refused],
        show: { answers: false, reviews: true },
        style: plain,
        simulated: false,
      }).slice(3),
    ).toEqual([
      'Review by alpha',
      '  no ranking could be read from its reply, so it gave no ballot.',
      '',
      'Review by beta: no review (timed out): no answer within 120000 ms',
      '',
      'Review by gamma',
      '  no ranking could be read from its reply, so it gave no ballot.',
      '  alpha (Response A): 3/10',
      '',
      'Review by delta',
      '  it declined to rank the answers (abstained), so it gave no ballot.',
    ]);
  });

  it('says so when the session has no review (the cost cap stopped it before stage 2)', () => {
    expect(
      renderAnswersAndReviews({
        stage1: session().stage1,
        stage2: [],
        show: { answers: false, reviews: true },
        style: plain,
        simulated: false,
        notReviewed: true,
      }),
    ).toEqual(['Reviews', 'None: the cost cap stopped the council before stage 2.']);
  });
});

describe('renderSessionText without a synthesis: the answers are never lost', () => {
  const leaderboard = [
    { candidate: 'alpha', bordaScore: 1, bordaPoints: 2, voteCount: 2, winCount: 2, finalRank: 1, confidence: 'high' },
  ] as HistorySession['leaderboard'];

  it('prints every answer when every chairman failed, whatever show says, after a message that promises only what is shown', () => {
    const text = renderSessionText({
      session: session({ synthesis: null, leaderboard }),
      style: plain,
      simulated: false,
    });
    expect(
      text.startsWith(
        [
          "No synthesis: every chairman failed. The members' answers and the leaderboard below are kept.",
          '',
          ...ANSWERS,
          '',
          'Leaderboard',
        ].join('\n'),
      ),
    ).toBe(true);
    // Unranked: no leaderboard is promised.
    expect(
      renderSessionText({
        session: session({ synthesis: null }),
        style: plain,
        simulated: false,
        show: { answers: false, reviews: false },
      }),
    ).toContain("No synthesis: every chairman failed. The members' answers below are kept.\n\nAnswer from alpha");
  });

  it('does not print the answers twice when they were printed above a synthesis that then failed', () => {
    const text = renderSessionText({
      session: session({ synthesis: null }),
      style: plain,
      simulated: false,
      show: { answers: true, reviews: true },
      shownBefore: true,
    });
    expect(text).toBe(
      "No synthesis: every chairman failed. The members' answers above are kept.\n\nSession s-1 · 2 tokens · cost not reported\n",
    );
    // Only the reviews were above: the answers come now.
    const reviewsAbove = renderSessionText({
      session: session({ synthesis: null }),
      style: plain,
      simulated: false,
      show: { answers: false, reviews: true },
      shownBefore: true,
    });
    expect(
      reviewsAbove.startsWith(
        ["No synthesis: every chairman failed. The members' answers below are kept.", '', ...ANSWERS, ''].join('\n'),
      ),
    ).toBe(true);
  });

  it('prints the answers of a session the cost cap stopped, marked not reviewed before stage 2', () => {
    const costCap = { maxCostUsd: 0.01, spentUsd: 0.003, estimatedUsd: 0.009, stoppedBeforeStage: 2 as const };
    const text = renderSessionText({ session: session({ synthesis: null, costCap }), style: plain, simulated: false });
    expect(
      text.startsWith(
        'No synthesis: the cost cap stopped the council before stage 2 (review); what finished is kept (see the note below).\n\nAnswer from alpha (not reviewed)\n\nAlpha says',
      ),
    ).toBe(true);
    const before3 = renderSessionText({
      session: session({ synthesis: null, costCap: { ...costCap, stoppedBeforeStage: 3 }, leaderboard }),
      style: plain,
      simulated: false,
    });
    expect(before3).toContain('before stage 3 (synthesis)');
    expect(before3).toContain('\n\nAnswer from alpha\n\nAlpha says');
  });

  it('says no synthesis was asked for on a --no-synthesis session, and shows the answers', () => {
    const text = renderSessionText({
      session: session({ synthesis: null, config: { ...session().config, synthesis: false } }),
      style: plain,
      simulated: false,
    });
    expect(
      text.startsWith(
        "No synthesis: none was asked for (--no-synthesis); the ranking below is the council's result.\n\nAnswer from alpha",
      ),
    ).toBe(true);
  });
});

describe('renderSessionText: the session’s bias flags in words (issue 30 item 8)', () => {
  it('names each flag as a reader says it, not by its code, and heads the vote coverage as coverage', () => {
    const leaderboard = [
      {
        candidate: 'alpha',
        bordaScore: 1,
        bordaPoints: 2,
        voteCount: 2,
        winCount: 2,
        finalRank: 1,
        confidence: 'high',
      },
    ] as HistorySession['leaderboard'];
    const text = renderSessionText({
      session: session({
        leaderboard,
        biasIndicators: {
          position_variance: 1.43,
          length_correlation: -0.9,
          reviewer_agreement: 0.6,
          flags: ['POSITION_BIAS_DETECTED', 'LENGTH_BIAS_DETECTED', 'HARSH_REVIEWER'],
        } as unknown as HistorySession['biasIndicators'],
      }),
      style: plain,
      simulated: false,
    });
    expect(text).toContain('; flags: position bias, length bias, harsh reviewer\n');
    expect(text).toMatch(/│ rank │ member │ Borda score │ points │ votes │ wins │ coverage │/);
    expect(text).not.toMatch(/[A-Z]+_[A-Z_]+|confidence/);
  });
});

describe('renderSessionText on a colour terminal', () => {
  it("renders the answers' Markdown and removes control sequences from every model text", () => {
    const s = session({
      stage1: [answer('alpha', 'Use **care**.\u001b]0;title\u0007')],
      synthesis: { ...session().synthesis!, text: 'Done.\u001b[2J' },
    });
    const text = renderSessionText({
      session: s,
      style: createStyle(true),
      simulated: false,
      show: { answers: true, reviews: false },
    });
    expect(text).toContain('Use \u001b[1mcare\u001b[22m.\n');
    expect(text).toContain('\nDone.\n');
    expect(text).not.toContain('\u001b]');
    expect(text).not.toContain('\u001b[2J');
  });
});
