import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkKeyContent } from './check-key-content.js';
import { readEvalDataset } from './read-eval-dataset.js';

const dir = mkdtempSync(join(tmpdir(), 'council-eval-dataset-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const problem = (path: string): string => {
  try {
    readEvalDataset(path);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('readEvalDataset', () => {
  it('reads the shipped example: 32 items of every kind', () => {
    const items = readEvalDataset(resolve(import.meta.dirname, '../../../../examples/eval/questions.jsonl'));
    expect(items).toHaveLength(32);
    expect(items.filter((i) => i.accept).length).toBe(19);
    expect(items.filter((i) => i.reference && !i.accept).length).toBe(3);
    expect(items.filter((i) => i.preference).length).toBe(5);
    expect(items.filter((i) => i.humanScore).length).toBe(5);
  });

  it('reads JSONL with every field, phrases and regular expressions', () => {
    const [item] = readEvalDataset(
      file(
        'full.jsonl',
        '{"id": 7, "question": "Q?", "reference": "R", "accept": {"any_of": ["Paris", "/^par/i"], "all_of": ["France"]}, "answers": ["a", "b"], "preferred": "tie", "answer": "c", "human_score": 7.5}\n',
      ),
    );
    expect(item).toEqual({
      id: '7',
      line: 1,
      question: 'Q?',
      reference: 'R',
      accept: {
        anyOf: [
          { kind: 'phrase', text: 'Paris' },
          { kind: 'regex', source: '^par', flags: 'i' },
        ],
        allOf: [{ kind: 'phrase', text: 'France' }],
      },
      preference: { answers: ['a', 'b'], preferred: 'tie', votes: ['tie'] },
      humanScore: { answer: 'c', score: 7.5 },
    });
  });

  it('reads CSV with quoted fields, a JSON list of phrases and line numbers of multi-line records', () => {
    const items = readEvalDataset(
      file(
        'set.csv',
        'id,question,accept_any_of,answer_a,answer_b,preferred\n' +
          'a,"Capital of France, please?",Paris,,,\n' +
          'b,"Two\nlines",,"x ""quoted""",y,1\n' +
          'c,Q,"[""Ottawa"", ""/otta/i""]",,,\n',
      ),
    );
    expect(items.map((i) => [i.id, i.line])).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 5],
    ]);
    expect(items[0]!.question).toBe('Capital of France, please?');
    expect(items[1]!.preference).toEqual({ answers: ['x "quoted"', 'y'], preferred: 1, votes: [1] });
    expect(items[2]!.accept!.anyOf).toEqual([
      { kind: 'phrase', text: 'Ottawa' },
      { kind: 'regex', source: 'otta', flags: 'i' },
    ]);
  });

  it('reads several people’s votes as a list (JSONL and CSV): the majority, ties when they split evenly', () => {
    const [a, b] = readEvalDataset(
      file(
        'votes.jsonl',
        '{"id": "a", "question": "Q", "answers": ["x", "y"], "preferred": [1, 1, 0]}\n{"id": "b", "question": "Q", "answers": ["x", "y"], "preferred": [0, 1, "tie"]}\n',
      ),
    );
    expect(a!.preference).toEqual({ answers: ['x', 'y'], preferred: 1, votes: [1, 1, 0] });
    expect(b!.preference!.preferred).toBe('tie');
    const [c] = readEvalDataset(file('votes.csv', 'id,question,answer_a,answer_b,preferred\nc,Q,x,y,"[0, 0]"\n'));
    expect(c!.preference).toEqual({ answers: ['x', 'y'], preferred: 0, votes: [0, 0] });
    expect(
      problem(file('novotes.jsonl', '{"id": "a", "question": "Q", "answers": ["x", "y"], "preferred": []}\n')),
    ).toMatch(/novotes\.jsonl:1: field "preferred"/);
  });

  it('names the line and field of a bad item and says what to write', () => {
    const good = '{"id": "a", "question": "Q", "accept": {"any_of": ["x"]}}\n';
    expect(
      problem(file('pref.jsonl', `${good}{"id": "b", "question": "Q", "answers": ["x", "y"], "preferred": 2}\n`)),
    ).toMatch(/pref\.jsonl:2: field "preferred" must be 0 \(the first answer\), 1 \(the second\) or "tie"/);
    expect(problem(file('half.jsonl', `${good}{"id": "b", "question": "Q", "answers": ["x", "y"]}\n`))).toMatch(
      /half\.jsonl:2: field "preferred" is missing/,
    );
    expect(problem(file('camel.jsonl', `${good}{"id": "b", "question": "Q", "accept": {"anyOf": ["x"]}}\n`))).toMatch(
      /camel\.jsonl:2: unknown field "anyOf" in "accept" \(write any_of and all_of/,
    );
    expect(
      problem(file('regex.jsonl', `${good}{"id": "b", "question": "Q", "accept": {"any_of": ["/(/"]}}\n`)),
    ).toMatch(/regex\.jsonl:2: field "accept\.any_of\[0\]" is not a valid regular expression/);
    expect(problem(file('nothing.jsonl', `${good}{"id": "b", "question": "Q"}\n`))).toMatch(
      /nothing\.jsonl:2: gives nothing to check/,
    );
    expect(
      problem(file('score.jsonl', `${good}{"id": "b", "question": "Q", "answer": "a", "human_score": 11}\n`)),
    ).toMatch(/score\.jsonl:2: field "human_score" must lie on the reviewers' 1–10 scale/);
    expect(problem(file('dup.jsonl', `${good}${good}`))).toMatch(/dup\.jsonl:2: the id "a" is already used on line 1/);
    expect(problem(file('torn.jsonl', `${good}{"id": "b",\n`))).toMatch(/torn\.jsonl:2 is not valid JSON/);
    expect(problem(file('bad.csv', 'id,question,human_score\nx,Q,high\n'))).toMatch(
      /bad\.csv:2: field "human_score" must be a number/,
    );
    expect(problem(file('cols.csv', 'id,question,prompt\nx,Q,y\n'))).toMatch(/cols\.csv:1: unknown column "prompt"/);
  });

  it('says when a file is not a dataset at all', () => {
    expect(problem(file('notes.txt', 'Remember to buy milk.\nAnd eggs.\n'))).toMatch(
      /notes\.txt is not an eval dataset/,
    );
    expect(problem(file('prompts.jsonl', '{"prompt": "What is 2+2?"}\n'))).toMatch(
      /prompts\.jsonl is not an eval dataset: line 1 has no "question"/,
    );
    expect(problem(file('bin.jsonl', '\u0000\u0001'))).toMatch(/is not an eval dataset: it is a binary file/);
    expect(problem(file('empty.jsonl', '\n\n'))).toMatch(/holds no items/);
    expect(problem(join(dir, 'missing.jsonl'))).toMatch(/Cannot read the dataset .*missing\.jsonl \(ENOENT\)/);
  });
});

describe('checkKeyContent', () => {
  const phrase = (text: string) => ({ kind: 'phrase' as const, text });
  it('finds a phrase whatever its case and spacing', () => {
    expect(checkKeyContent('The capital is  PARIS.', { anyOf: [phrase('paris')], allOf: [] })).toBe(true);
    expect(checkKeyContent('Carbon\ndioxide', { anyOf: [phrase('carbon dioxide')], allOf: [] })).toBe(true);
    expect(checkKeyContent('Lyon', { anyOf: [phrase('Paris')], allOf: [] })).toBe(false);
  });
  it('needs every all_of pattern and one any_of pattern', () => {
    const rule = { anyOf: [phrase('km'), phrase('kilometres')], allOf: [phrase('Nile'), phrase('Amazon')] };
    expect(checkKeyContent('The Nile and the Amazon, 6,650 km', rule)).toBe(true);
    expect(checkKeyContent('The Nile, 6,650 km', rule)).toBe(false);
    expect(checkKeyContent('The Nile and the Amazon', rule)).toBe(false);
  });
  it('tests a regular expression as written', () => {
    const rule = { anyOf: [{ kind: 'regex' as const, source: '\\b391\\b', flags: '' }], allOf: [] };
    expect(checkKeyContent('17 × 23 = 391.', rule)).toBe(true);
    expect(checkKeyContent('3910', rule)).toBe(false);
  });
});
