import { describe, expect, it } from 'vitest';
import { extractMemberAnswers, extractResponseBlocks } from './parse-council-prompt.js';

describe('extractResponseBlocks', () => {
  it('reads boundary-marked blocks and leaves out the markers and what follows them', () => {
    const prompt = [
      'Evaluate the responses. Use this format at the end:',
      'FINAL RANKING:',
      '1. Response A',
      '2. Response B',
      '<<<a1b2c3 Response A>>>',
      'First answer,',
      'two lines.',
      '<<<a1b2c3 END>>>',
      '<<<a1b2c3 Response B>>>',
      'Second answer.',
      '<<<a1b2c3 END>>>',
      'Now write FINAL RANKING.',
    ].join('\n');
    expect(extractResponseBlocks(prompt)).toEqual([
      { label: 'Response A', text: 'First answer,\ntwo lines.' },
      { label: 'Response B', text: 'Second answer.' },
    ]);
  });

  it('reads decorated headers, runs each block to the next header, and ignores numbered ranking lines', () => {
    const prompt = '### Response B\nbee text\n--- Response A ---\nay text\n\n**Response AB:**\nlong label\nFINAL RANKING:\n1. Response A\n2. Response B';
    expect(extractResponseBlocks(prompt)).toEqual([
      { label: 'Response B', text: 'bee text' },
      { label: 'Response A', text: 'ay text' },
      { label: 'Response AB', text: 'long label\nFINAL RANKING:\n1. Response A\n2. Response B' },
    ]);
  });

  it('does not take lines with other words for headers', () => {
    expect(extractResponseBlocks('Response A is good\nResponse of the day\nresponse a')).toEqual([]);
  });

  it('when a label opens two blocks (an instruction list), keeps the longer one in its own position', () => {
    const prompt = '- Response A\n- Response B\nHere they are:\n## Response A\nreal a text here\n## Response B\nreal b text here';
    expect(extractResponseBlocks(prompt)).toEqual([
      { label: 'Response A', text: 'real a text here' },
      { label: 'Response B', text: 'real b text here' },
    ]);
  });
});

describe('extractMemberAnswers', () => {
  it('reads answers under Model: lines', () => {
    const prompt = 'You are the Chairman. List contributors.\n\nModel: simulated:ada\nAda says.\nMore.\n\n### Model: openrouter:x/y\nXY says.';
    expect(extractMemberAnswers(prompt)).toEqual([
      { id: 'simulated:ada', text: 'Ada says.\nMore.' },
      { id: 'openrouter:x/y', text: 'XY says.' },
    ]);
  });

  it('ends the last answer at the next top-level section heading, so peer evaluations are not part of it', () => {
    const prompt = 'List contributors.\n\nModel: ada\nAda says.\n\nModel: basil\nBasil says.\n\n# Peer Evaluations\nada ranked first by 3 reviewers.';
    expect(extractMemberAnswers(prompt)).toEqual([
      { id: 'ada', text: 'Ada says.' },
      { id: 'basil', text: 'Basil says.' },
    ]);
  });
});
