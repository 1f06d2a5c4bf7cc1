import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMulberry32FromParts } from './create-mulberry32-from-parts.js';
import {
  askedQuestion,
  classifySentences,
  composeAnswer,
  fillerTemplates,
  perceivedQuality,
  styleOpenings,
  styleSignOffs,
  substantiveTemplates,
  topicWords,
} from './simulated-text.js';

describe('simulated text', () => {
  it('pairs every substantive template with a filler of the same length, so quality cannot show in length', () => {
    expect(substantiveTemplates.length).toBe(fillerTemplates.length);
    substantiveTemplates.forEach((t, i) => expect(t.length, t).toBe(fillerTemplates[i]!.length));
    expect(new Set(styleOpenings.map((o) => o.length)).size).toBe(1);
    expect(new Set(styleSignOffs.map((o) => o.length)).size).toBe(1);
  });

  it('picks topic words from the question, leaving out common words', () => {
    expect(topicWords('How should a small team adopt caching for their database?')).toEqual([
      'database',
      'caching',
      'small',
    ]);
    expect(topicWords('Why?')).toEqual(['the question']);
  });

  it('perceives the share of substantive sentences, ignoring text it did not write', () => {
    const s = substantiveTemplates[0]!.replace('{t}', 'caching');
    const f = fillerTemplates[1]!.replace('{t}', 'caching');
    expect(perceivedQuality(`${s} ${f} ${f} ${f}\nSome other sentence. And another.`)).toBe(0.25);
    expect(classifySentences(`${s}\n${s} ${f}`)).toEqual({ substantive: [s, s], filler: [f] });
  });

  it('gives text it did not write a stable quality in [0.3, 0.8]', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const q = perceivedQuality(text);
        return q >= 0.3 && q <= 0.8 && q === perceivedQuality(text);
      }),
    );
  }, 30_000);

  it('an answer’s perceived quality is on average its author’s quality, whatever its length', () => {
    for (const sentences of [3, 8, 20]) {
      const qs: number[] = [];
      for (let i = 0; i < 400; i++) {
        const text = composeAnswer({
          question: 'caching strategy',
          quality: 0.7,
          sentences,
          style: 3,
          random: createMulberry32FromParts(['t', sentences, i]),
        });
        qs.push(perceivedQuality(text));
      }
      const mean = qs.reduce((a, b) => a + b, 0) / qs.length;
      // Standard error of the mean is at most √(0.21 / 3 / 400) ≈ 0.013.
      expect(Math.abs(mean - 0.7), `sentences ${sentences}`).toBeLessThan(0.05);
    }
  });
});

describe('askedQuestion (issue 30 item 14: the simulated follow-up answer named the random boundary token)', () => {
  it("takes a follow-up's question out of the context around it", () => {
    const prompt = [
      'This question follows up an earlier one in the same conversation. Use it as context.',
      '',
      '<<<k3x9q2m8v7b4n1z0 PREVIOUS ANSWER>>>',
      'Start with characterisation tests.',
      '<<<k3x9q2m8v7b4n1z0 END>>>',
      '',
      'The follow-up question:',
      'How do rollbacks work?',
    ].join('\n');
    expect(askedQuestion(prompt)).toBe('How do rollbacks work?');
    expect(topicWords(askedQuestion(prompt))).toEqual(['rollbacks', 'work']);
  });

  it('leaves a plain question as it is', () => {
    expect(askedQuestion('What is a sensible backup strategy?')).toBe('What is a sensible backup strategy?');
  });
});
