import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { recordRegexExecutions, regexExecutionPastBudget } from './__fixtures__/regex-steps.js';
import type * as JsonObjectInText from './json-object-in-text.js';
import { parseEvaluation } from './parse-evaluation.js';
import { responseLabel } from './response-label.js';

/** Characters `balancedObjectEnd` scans looking for closing braces (counted work for the linear-time guard). */
const scanned = vi.hoisted(() => ({ characters: 0 }));
vi.mock('./json-object-in-text.js', async (importActual) => {
  const actual = await importActual<typeof JsonObjectInText>();
  return {
    ...actual,
    balancedObjectEnd: (text: string, start: number): number => {
      const end = actual.balancedObjectEnd(text, start);
      scanned.characters += (end === -1 ? text.length : end) - start;
      return end;
    },
  };
});

const abc = ['Response A', 'Response B', 'Response C'];

const canonical = `### Response A
**Strengths**: Clear and correct.
**Weaknesses**: Misses the edge case of empty input.
**Score**: 7

### Response B
1. **Strengths**: Thorough.
2. **Weaknesses**: Too long.
3. **Score**: 5/10

### Response C
- Strengths: Concise, cites the spec.
- Weaknesses: none found
- Score: 9

\`\`\`json
{"ranking": ["Response C", "Response A", "Response B"], "scores": {"Response A": 7, "Response B": 5, "Response C": 9}}
\`\`\`

FINAL RANKING:
1. Response C
2. Response A
3. Response B
`;

describe('parseEvaluation', () => {
  it('reads the canonical format: JSON ranking and scores, critiques per response', () => {
    const parsed = parseEvaluation(canonical, abc);
    expect(parsed.format).toBe('json');
    expect(parsed.ranking).toEqual(['Response C', 'Response A', 'Response B']);
    expect(parsed.scores).toEqual({ 'Response A': 7, 'Response B': 5, 'Response C': 9 });
    expect(parsed.critiques).toEqual({
      'Response A': { strengths: 'Clear and correct.', weaknesses: 'Misses the edge case of empty input.' },
      'Response B': { strengths: 'Thorough.', weaknesses: 'Too long.' },
      'Response C': { strengths: 'Concise, cites the spec.', weaknesses: 'none found' },
    });
    expect(parsed.abstained).toBe(false);
    expect(parsed.warnings).toEqual([]);
  });

  it('the last JSON block with a ranking wins', () => {
    const text =
      '```json\n{"ranking": ["Response A", "Response B"]}\n```\nOn reflection:\n```json\n{"ranking": ["Response B", "Response A"], "scores": {"Response B": 8}}\n```\n```json\n{"note": "no ranking here"}\n```';
    const parsed = parseEvaluation(text, abc);
    expect(parsed.ranking).toEqual(['Response B', 'Response A']);
    expect(parsed.scores).toEqual({ 'Response B': 8 });
  });

  it('reads a bare (unfenced) JSON object too', () => {
    const parsed = parseEvaluation('My verdict: {"ranking": ["Response B", "Response C", "Response A"]} done.', abc);
    expect(parsed.format).toBe('json');
    expect(parsed.ranking).toEqual(['Response B', 'Response C', 'Response A']);
  });

  it('falls back to the FINAL RANKING section when the JSON is broken', () => {
    const text =
      '```json\n{"ranking": ["Response A", \n```\nfinal ranking:\n1. Response B\n2. Response A\n3. Response C\n';
    const parsed = parseEvaluation(text, abc);
    expect(parsed.format).toBe('final-ranking');
    expect(parsed.ranking).toEqual(['Response B', 'Response A', 'Response C']);
  });

  it('accepts bulleted and bold lists, and `1)` numbering, with the marker in any case', () => {
    expect(
      parseEvaluation('**Final Ranking:**\n- **Response C**\n- Response A — solid\n- response b', abc).ranking,
    ).toEqual(['Response C', 'Response A', 'Response B']);
    expect(parseEvaluation('FINAL RANKING\n1) C\n2) A', abc).ranking).toEqual(['Response C', 'Response A']);
  });

  it('accepts a ranking written on the marker line', () => {
    expect(parseEvaluation('FINAL RANKING: Response B > Response C > Response A', abc).ranking).toEqual([
      'Response B',
      'Response C',
      'Response A',
    ]);
    expect(parseEvaluation('Final ranking: **B**, (A), c.', abc).ranking).toEqual([
      'Response B',
      'Response A',
      'Response C',
    ]);
  });

  it('does not read prose on the marker line as a ranking entry', () => {
    // "Response A" here is a mention in a sentence, not a place: the list below is the ranking.
    const parsed = parseEvaluation(
      'In the final ranking below I put Response A last.\n- Response B\n- Response C\n- Response A',
      abc,
    );
    expect(parsed.ranking).toEqual(['Response B', 'Response C', 'Response A']);
    expect(parsed.warnings).toEqual([]);
    expect(parseEvaluation('My final ranking weighs Response C highly, as discussed.', abc).ranking).toEqual([]);
  });

  it('matches multi-letter labels for councils of more than 26', () => {
    const labels = Array.from({ length: 30 }, (_, i) => responseLabel(i));
    const parsed = parseEvaluation(
      '```json\n{"ranking": ["Response AC", "response ab", "Response Z"], "scores": {"Response AD": "8"}}\n```',
      labels,
    );
    expect(parsed.ranking).toEqual(['Response AC', 'Response AB', 'Response Z']);
    expect(parsed.scores).toEqual({ 'Response AD': 8 });
  });

  it('keeps the first place of a duplicate and drops unknown labels, with warnings', () => {
    const parsed = parseEvaluation(
      '```json\n{"ranking": ["Response B", "Response Q", "Response B", "Response A", 3]}\n```',
      abc,
    );
    expect(parsed.ranking).toEqual(['Response B', 'Response A']);
    expect(parsed.warnings).toHaveLength(3);
    expect(parsed.warnings.join('\n')).toMatch(/Response Q/);
    expect(parsed.warnings.join('\n')).toMatch(/twice/);
  });

  it('accepts numeric strings as scores but not booleans or out-of-scale numbers', () => {
    const parsed = parseEvaluation(
      '```json\n{"ranking": ["Response A"], "scores": {"Response A": "6.5", "Response B": true, "Response C": 11}}\n```',
      abc,
    );
    expect(parsed.scores).toEqual({ 'Response A': 6.5 });
    expect(parsed.warnings.join('\n')).toMatch(/boolean/);
    expect(parsed.warnings.join('\n')).toMatch(/outside/);
  });

  it('reads prose scores when there is no JSON', () => {
    const text =
      '## Response A\nStrengths: ok\nScore: 4\n## Response B\nWeaknesses: wrong\nScore: 8/10\nFINAL RANKING:\n1. Response B\n2. Response A';
    const parsed = parseEvaluation(text, ['Response A', 'Response B']);
    expect(parsed.scores).toEqual({ 'Response A': 4, 'Response B': 8 });
    expect(parsed.critiques['Response B']).toEqual({ strengths: '', weaknesses: 'wrong' });
  });

  it('a refusal is an abstention only when no ranking was found', () => {
    const refusal = parseEvaluation("I'm sorry, but I cannot evaluate these responses.", abc);
    expect(refusal.abstained).toBe(true);
    expect(refusal.ranking).toEqual([]);
    const rankedAnyway = parseEvaluation(
      'I cannot be fully sure, but\nFINAL RANKING:\n1. Response A\n2. Response B',
      abc,
    );
    expect(rankedAnyway.abstained).toBe(false);
    expect(rankedAnyway.ranking).toEqual(['Response A', 'Response B']);
  });

  it('does not read "Response X" mentions scattered through prose as a ranking', () => {
    const parsed = parseEvaluation('Response B is clearly better than Response A, though Response C has merit.', abc);
    expect(parsed.ranking).toEqual([]);
    expect(parsed.format).toBe('none');
    expect(parsed.abstained).toBe(false);
    expect(parsed.warnings).toEqual([
      'no ranking found (neither a JSON block with "ranking" nor a FINAL RANKING list).',
    ]);
  });

  it('never throws, on any string and any labels', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }),
        (text, labels) => {
          const parsed = parseEvaluation(text, labels);
          expect(Array.isArray(parsed.ranking)).toBe(true);
          expect(new Set(parsed.ranking).size).toBe(parsed.ranking.length);
        },
      ),
      { numRuns: 500 },
    );
  }, 30_000);

  it('never throws on text built from the format’s own pieces, and only returns labels it was given', () => {
    const piece = fc.constantFrom(
      'FINAL RANKING:',
      '```json',
      '```',
      '{"ranking": [',
      '"Response A"',
      '"Response Q"',
      ',',
      ']',
      '}',
      '"scores": {',
      ': 7',
      ': true',
      '1. Response B',
      '- Response C',
      '### Response A',
      'Strengths:',
      'Weaknesses:',
      'Score: 12',
      '\n',
      ' ',
      'I cannot',
      '"',
      '\\',
      '{',
      'null',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const parsed = parseEvaluation(pieces.join(''), abc);
        for (const label of parsed.ranking) expect(abc).toContain(label);
        for (const [label, score] of Object.entries(parsed.scores)) {
          expect(abc).toContain(label);
          expect(score).toBeGreaterThanOrEqual(1);
          expect(score).toBeLessThanOrEqual(10);
        }
        if (parsed.abstained) expect(parsed.ranking).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  }, 30_000);
});

describe('parseEvaluation critiques', () => {
  it('reads strengths, weaknesses and score written on the header line', () => {
    const text = `Response A — strengths: concrete advice with trade-offs. weaknesses: a few sentences could be cut. score: 8/10

Response B — strengths: some usable points. weaknesses: generic sentences. score: 6/10

FINAL RANKING:
1. Response A
2. Response B`;
    const parsed = parseEvaluation(text, ['Response A', 'Response B']);
    expect(parsed.critiques).toEqual({
      'Response A': { strengths: 'concrete advice with trade-offs.', weaknesses: 'a few sentences could be cut.' },
      'Response B': { strengths: 'some usable points.', weaknesses: 'generic sentences.' },
    });
    expect(parsed.scores).toEqual({ 'Response A': 8, 'Response B': 6 });
  });

  it('keeps multi-line strengths together and ignores a strengths-based phrase in prose', () => {
    const text =
      '**Response A**\nStrengths:\n- fast\n- cheap\nWeaknesses: a strengths-based pitch only\nFINAL RANKING:\n1. Response A';
    expect(parseEvaluation(text, ['Response A']).critiques).toEqual({
      'Response A': { strengths: 'fast\ncheap', weaknesses: 'a strengths-based pitch only' },
    });
  });
});

describe('parseEvaluation on hostile input', () => {
  // Counted work, not time. Replaying every regex execution in the step-counting matcher is slower than V8: hence the
  // timeout.
  it('stays linear on long runs of markers, braces, fences and spaces', { timeout: 120_000 }, () => {
    const hostile = [
      '- final ranking Response Q\n'.repeat(4000),
      '{"ranking": ['.repeat(8000),
      '```\n'.repeat(20000),
      `${' '.repeat(20_000)}x`,
      '### Response A strengths: x weaknesses: y score: 5\n'.repeat(2000),
      `FINAL RANKING: Response A${' '.repeat(20_000)}x`,
    ];
    for (const text of hostile) {
      const what = JSON.stringify(text.slice(0, 30));
      const run = () => void parseEvaluation(text, ['Response A', 'Response B']);
      // Regex work, all executions together: today at most about 22 steps per character of the text; a pattern
      // that backtracks over a run of n repeated characters from each of their positions (or a pattern run at each
      // position that backtracks over the rest) takes about n/2 per character.
      expect(regexExecutionPastBudget(run, 100 * text.length), what).toBeUndefined();
      // Loops, counted: a pattern run per line or per position (`split` runs its pattern at each one), and the scans
      // for a closing brace, are linear in the text when bounded (today at most 2 and 0.01 times its length); a loop
      // that retried every marker or every bare object costs hundreds to thousands of times the text.
      expect(recordRegexExecutions(run).length, what).toBeLessThanOrEqual(4 * text.length);
      scanned.characters = 0;
      run();
      expect(scanned.characters, what).toBeLessThanOrEqual(4 * text.length);
    }
  });
});
