import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stage1Result, Stage2Result, SynthesisTextPart } from '@council/core';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { testContext } from '../testing/capture-io.js';
import { runAsk } from './ask-command.js';

const KEY = 'sk-or-v1-HOOKS-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const CHAIRMAN_TEXT = 'Start with characterisation tests around the riskiest module.';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY, chairman: { chunkSize: 7 } });
});
afterAll(() => server.close());

describe('runAsk passes answers, reviews and the synthesis stream to its hooks (issue 16)', () => {
  for (const json of [true, false]) {
    it(`with ${json ? '--json' : 'the terminal printer'}: one answer per member, one review per reviewer, the chairman's reply in pieces`, async () => {
      const home = mkdtempSync(join(tmpdir(), 'council-hooks-'));
      const { ctx, out } = testContext({ env: { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY }, home });
      const answers: Stage1Result[] = [];
      const reviews: Stage2Result[] = [];
      const parts: SynthesisTextPart[] = [];
      const { session } = await runAsk(
        { question: 'How do I test a legacy module?', models: MEMBERS, json, persist: false },
        ctx,
        { onAnswer: (a) => answers.push(a), onReview: (r) => reviews.push(r), onSynthesisText: (p) => parts.push(p) },
      );
      expect(answers.map((a) => a.member).sort()).toEqual(MEMBERS);
      expect(reviews.map((r) => r.reviewer).sort()).toEqual(MEMBERS);
      // The reply is the chairman's text and its contributors block, 7 characters a piece.
      const reply = parts.map((p) => p.text).join('');
      expect(reply.startsWith(`${CHAIRMAN_TEXT}\n\n\`\`\`json`)).toBe(true);
      expect(parts.length).toBe(Math.ceil(reply.length / 7));
      expect(session.synthesis?.text).toBe(CHAIRMAN_TEXT);
      // The terminal still gets the answer when a hook listens too.
      if (!json) expect(out()).toContain(CHAIRMAN_TEXT);
    }, 30_000);
  }
});
