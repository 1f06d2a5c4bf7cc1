import { describe, expect, it } from 'vitest';
import { testModel } from './__fixtures__/scripted-council.js';
import { combinePersonalities } from './combine-personalities.js';
import type { CouncilSession } from './council-session.js';
import { critiqueThemes, generateFeedbackSummary } from './generate-feedback-summary.js';
import { parsePersonality, stringifyPersonality } from './parse-personality.js';
import type { Personality } from './personality.js';

function review(
  reviewer: string,
  critiques: Record<string, { strengths: string; weaknesses: string }>,
): CouncilSession['stage2'][number] {
  return {
    reviewer,
    model: reviewer,
    order: [],
    labelToModel: {},
    evaluation: { ranking: [], scores: {}, critiques, abstained: false, format: 'json' },
    text: '',
    warnings: [],
    usage: null,
    latencyMs: 0,
    error: null,
  };
}

const history: Array<Pick<CouncilSession, 'stage2'>> = [
  {
    stage2: [
      review('critic', { sage: { strengths: '- Clear structure.\n- Cites sources.', weaknesses: 'Too long.' } }),
      review('skeptic', { sage: { strengths: 'Clear structure; practical', weaknesses: 'too long' } }),
      review('sage', { sage: { strengths: 'Brilliant', weaknesses: 'none' } }), // a self-review: not peer feedback
    ],
  },
  {
    stage2: [
      review('critic', { sage: { strengths: '**Clear structure**', weaknesses: 'Misses costs. Too long!' } }),
      review('critic', { other: { strengths: 'x', weaknesses: 'y' } }),
    ],
  },
  { stage2: [review('critic', { other: { strengths: 'x', weaknesses: 'y' } })] },
];

describe('generateFeedbackSummary', () => {
  it('splits critiques into normalised themes', () => {
    expect(critiqueThemes('- Clear structure.\n- Cites sources; **practical**!')).toEqual([
      'clear structure',
      'cites sources',
      'practical',
    ]);
    expect(critiqueThemes('None found.')).toEqual([]);
  });

  it('counts the themes peers raised across sessions, excluding self-reviews', async () => {
    const summary = await generateFeedbackSummary(history, 'sage');
    expect(summary).toEqual({
      personalityId: 'sage',
      sessions: 2,
      reviews: 3,
      strengths: [
        { theme: 'clear structure', count: 3 },
        { theme: 'cites sources', count: 1 },
        { theme: 'practical', count: 1 },
      ],
      weaknesses: [
        { theme: 'too long', count: 3 },
        { theme: 'misses costs', count: 1 },
      ],
      summary: null,
    });
  });

  it('adds a model-written summary from the themes only', async () => {
    const model = testModel('writer', () => 'Keep the clear structure; cut length.');
    const summary = await generateFeedbackSummary(history, 'sage', { model });
    expect(summary.summary).toBe('Keep the clear structure; cut length.');
    expect(model.calls[0]!.prompt).toContain('- clear structure (3)');
    expect(model.calls[0]!.prompt).toContain('"sage"');
  });
});

const sage: Personality = {
  id: 'sage',
  name: 'The Sage',
  model: 'anthropic/claude',
  systemPrompt: 'You are wise.',
  traits: ['calm'],
};
const critic: Personality = {
  id: 'critic',
  name: 'The Critic',
  model: 'openai/gpt-4o',
  systemPrompt: 'You find flaws.',
};

describe('combinePersonalities', () => {
  it('builds the evolution prompt from parents and feedback, and returns the validated child with its lineage', async () => {
    const feedback = [await generateFeedbackSummary(history, 'sage')];
    const model = testModel(
      'designer',
      () =>
        'Here it is:\n```yaml\nid: wise-critic\nname: The Wise Critic\nsystem_prompt: |\n  You are wise and find flaws, briefly.\ntraits:\n  - calm\n  - exacting\n```',
    );
    const child = await combinePersonalities([sage, critic], feedback, model);
    expect(child).toEqual({
      id: 'wise-critic',
      name: 'The Wise Critic',
      model: 'anthropic/claude',
      systemPrompt: 'You are wise and find flaws, briefly.\n',
      traits: ['calm', 'exacting'],
      parents: ['sage', 'critic'],
    });
    const prompt = model.calls[0]!.prompt;
    expect(prompt).toContain('Identify complementary strengths to preserve and weaknesses to mitigate');
    expect(prompt).toContain('## sage (The Sage)');
    expect(prompt).toContain('- too long (3×)');
    expect(prompt).toContain('## critic\n(no peer feedback yet)');
    expect(parsePersonality(stringifyPersonality(child), 'roundtrip.yaml')).toEqual(child);
  });

  it('rejects fewer than two parents, a reply that is not a personality, and a reused parent id', async () => {
    const model = (text: string) => testModel('designer', () => text);
    await expect(combinePersonalities([sage], [], model('x'))).rejects.toThrow(/at least two parent/);
    await expect(
      combinePersonalities([sage, critic], [], model('```yaml\nname: No Id\nsystem_prompt: x\n```')),
    ).rejects.toThrow(/"id"/);
    await expect(
      combinePersonalities([sage, critic], [], model('```yaml\nid: sage\nname: S\nsystem_prompt: x\n```')),
    ).rejects.toThrow(/reuses its parent's id "sage"/);
    await expect(
      combinePersonalities([sage, critic], [], { model: testModel('down', () => ({ error: new Error('503') })) }),
    ).rejects.toThrow(/evolution model down failed: 503/);
    // A cause that ends its own sentence does not leave a doubled full stop.
    await expect(
      combinePersonalities([sage, critic], [], {
        model: testModel('down', () => ({ error: new Error('Set THE_KEY.') })),
      }),
    ).rejects.toThrow('The evolution model down failed: Set THE_KEY. Retry, or pick another model.');
    await expect(
      generateFeedbackSummary(history, 'sage', {
        model: testModel('down', () => ({ error: new Error('Set THE_KEY.') })),
      }),
    ).rejects.toThrow('The feedback summary model down failed: Set THE_KEY. Retry, or omit model');
  });
});
