import { describe, expect, it } from 'vitest';
import type { CouncilCallContext } from './council-call-context.js';
import type { Message } from './language-model-v1.js';
import { createMulberry32FromParts } from './create-mulberry32-from-parts.js';
import { defaultSimulatedPersonas } from './simulated-persona.js';
import type { SimulatedModel } from './simulated-model.js';
import { createSimulated } from './simulated-provider.js';
import type { SimulatedSettings } from './simulated-provider.js';
import { createFakeClock } from './test/create-fake-clock.js';

const roster = Object.keys(defaultSimulatedPersonas);
const questions = [
  'How should a small team adopt caching for their database?',
  'What is a sensible way to migrate a monolith to services?',
  'How do I choose between PostgreSQL and SQLite for a desktop app?',
  'What makes code review effective in a remote team?',
  'How should we plan capacity for a seasonal traffic spike?',
  'Is it worth rewriting our build scripts in TypeScript?',
];
const user = (content: string): Message[] => [{ role: 'user', content }];

/** The stage-2 context core sends beside its prompt (as `providerOptions.simulated.council`): the answers in the order shown, labelled A, B, …. */
function reviewContext(answers: readonly string[]): CouncilCallContext {
  return {
    stage: 'review',
    responses: answers.map((text, i) => ({ label: `Response ${String.fromCharCode(65 + i)}`, text })),
  };
}

function reviewPrompt(options: { question: string; answers: string[]; nonce: string }): string {
  const blocks = options.answers.map(
    (a, i) => `<<<${options.nonce} Response ${String.fromCharCode(65 + i)}>>>\n${a}\n<<<${options.nonce} END>>>`,
  );
  return [
    `Question: ${options.question}`,
    'Evaluate each response: strengths, weaknesses, a score from 1 to 10.',
    ...blocks,
    'End with FINAL RANKING: a numbered list, best first, e.g.\n1. Response C\n2. Response A',
  ].join('\n\n');
}

function parseReview(text: string): { ranking: string[]; scores: Record<string, number>; finalRanking: string[] } {
  const json = /```json\n([\s\S]*?)\n```/.exec(text);
  if (!json) throw new Error(`no json block in:\n${text}`);
  const parsed = JSON.parse(json[1]!) as { ranking: string[]; scores: Record<string, number> };
  const final = text.slice(text.lastIndexOf('FINAL RANKING:'));
  const finalRanking = [...final.matchAll(/^\d+\. (Response [A-Z]+)$/gm)].map((m) => m[1]!);
  return { ...parsed, finalRanking };
}

interface Observation {
  reviewer: string;
  author: string;
  position: number;
  length: number;
  score: number;
}

/** Runs `sessions` councils of the roster: every member answers, every member reviews all answers in its own shuffled order. */
async function runCouncils(
  settings: SimulatedSettings,
  sessions: number,
  members: readonly string[] = roster,
): Promise<Observation[]> {
  const provider = createSimulated({ latencyScale: 0, ...settings });
  const roster = members;
  const out: Observation[] = [];
  for (let s = 0; s < sessions; s++) {
    const question = `${questions[s % questions.length]!} (case ${s})`;
    const answers = await Promise.all(
      roster.map(async (name) => (await provider(name).doGenerate({ messages: user(question), seed: s })).text),
    );
    for (const reviewer of roster) {
      const shuffle = createMulberry32FromParts(['test-shuffle', s, reviewer]);
      const order = roster.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(shuffle() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const shown = order.map((i) => answers[i]!);
      const review = await provider(reviewer).doGenerate({
        messages: user(reviewPrompt({ question, answers: shown, nonce: `n${s}` })),
        providerOptions: { simulated: { council: reviewContext(shown) } },
        seed: s,
      });
      const { scores } = parseReview(review.text);
      order.forEach((authorIndex, position) => {
        out.push({
          reviewer,
          author: roster[authorIndex]!,
          position,
          length: shown[position]!.length,
          score: scores[`Response ${String.fromCharCode(65 + position)}`]!,
        });
      });
    }
  }
  return out;
}

function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('simulated: stage 1 answers', () => {
  it('labels every output as simulated and estimates usage at four characters a token, for free', async () => {
    const result = await createSimulated({ latencyScale: 0 })('ada').doGenerate({
      messages: user('Why is the sky blue?'),
      seed: 1,
    });
    const model = createSimulated()('ada');
    expect(model.provider).toBe('simulated');
    expect(model.modelId).toBe('ada');
    expect(result.text.startsWith('[simulated]')).toBe(true);
    // 'Why is the sky blue?' is 20 characters: 5 tokens.
    expect(result.usage.inputTokens).toBe(5);
    expect(result.usage.outputTokens).toBe(Math.ceil(result.text.length / 4));
    expect(result.usage.costUsd).toBe(0);
    expect(result.finishReason).toBe('stop');
    expect(result.responseModelId).toBe('simulated:ada');
    expect(result.seed).toBe(1);
  });

  it('is deterministic in (seed, model, prompt) and varies with each', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const text = async (name: string, seed: number, q: string) =>
      (await p(name).doGenerate({ messages: user(q), seed })).text;
    const base = await text('cleo', 4, questions[0]!);
    expect(await text('cleo', 4, questions[0]!)).toBe(base);
    expect(
      await createSimulated({ latencyScale: 0 })('cleo')
        .doGenerate({ messages: user(questions[0]!), seed: 4 })
        .then((r) => r.text),
    ).toBe(base);
    expect(await text('cleo', 5, questions[0]!)).not.toBe(base);
    expect(await text('basil', 4, questions[0]!)).not.toBe(base);
    expect(await text('cleo', 4, questions[1]!)).not.toBe(base);
    // The provider-level seed is used when a call gives none.
    const seeded = createSimulated({ latencyScale: 0, seed: 4 });
    expect((await seeded('cleo').doGenerate({ messages: user(questions[0]!) })).text).toBe(base);
  });

  it('talks about the question, and writes longer answers for a longer-winded persona', async () => {
    const p = createSimulated({
      latencyScale: 0,
      personas: { terse: { answerSentences: 2 }, verbose: { answerSentences: 20 } },
    });
    const terse = await p('terse').doGenerate({ messages: user(questions[0]!), seed: 1 });
    const verbose = await p('verbose').doGenerate({ messages: user(questions[0]!), seed: 1 });
    expect(verbose.text.length).toBeGreaterThan(terse.text.length * 3);
    expect(verbose.text).toMatch(/caching|database/);
  });

  it('plays the stage its council context names, never one guessed from the prompt', () => {
    const model = createSimulated({ latencyScale: 0 })('ada') as SimulatedModel;
    expect(
      model.respond({ messages: user('Rank them. FINAL RANKING:\nModel: simulated:ada\ncontributors') }).role,
    ).toBe('answer');
    expect(
      model.respond({ messages: user('Anything.'), providerOptions: { simulated: { council: { stage: 'answer' } } } })
        .role,
    ).toBe('answer');
    expect(
      model.respond({
        messages: user('Anything.'),
        providerOptions: { simulated: { council: reviewContext(['one answer']) } },
      }).role,
    ).toBe('review');
    expect(
      model.respond({
        messages: user('Anything.'),
        providerOptions: { simulated: { council: { stage: 'chairman', answers: [{ id: 'm', text: 'one answer' }] } } },
      }).role,
    ).toBe('chairman');
  });

  it('reads only its own providerOptions namespace: another provider’s options change nothing', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const plain = await p('ada').doGenerate({ messages: user(questions[1]!), seed: 4 });
    const withOthers = await p('ada').doGenerate({
      messages: user(questions[1]!),
      seed: 4,
      providerOptions: { openrouter: { council: { stage: 'review', responses: [] } }, anthropic: { thinking: {} } },
    });
    expect(withOthers.text).toBe(plain.text);
  });

  it('refuses malformed simulated options at once, naming the field, before any latency', async () => {
    const clock = createFakeClock();
    const p = createSimulated({ clock });
    const call = (simulated: Record<string, unknown>) =>
      p('ada').doGenerate({ messages: user('q'), providerOptions: { simulated } });
    // A misspelt key would otherwise leave every stage playing as an answer.
    await expect(call({ councl: { stage: 'review', responses: [] } })).rejects.toMatchObject({
      name: 'ProviderError',
      code: 'INVALID_SETTINGS',
      message: expect.stringMatching(
        /^The call to simulated:ada has malformed providerOptions\.simulated \(.*councl/,
      ) as unknown,
    });
    await expect(call({ council: { stage: 'vote' } })).rejects.toMatchObject({
      code: 'INVALID_SETTINGS',
      message: expect.stringContaining('providerOptions.simulated.council.stage') as unknown,
    });
    await expect(
      call({ council: { stage: 'review', responses: [{ label: 'Response A', text: 7 }] } }),
    ).rejects.toMatchObject({
      code: 'INVALID_SETTINGS',
      message: expect.stringContaining('providerOptions.simulated.council.responses[0].text') as unknown,
    });
    const model = p('ada') as SimulatedModel;
    expect(() =>
      model.respond({ messages: user('q'), providerOptions: { simulated: { council: { stage: 'chairman' } } } }),
    ).toThrow(/providerOptions\.simulated\.council\.answers/);
    // No sleep was started: each call failed before its persona's latency.
    expect(clock.sleeps).toEqual([]);
  });

  it('sleeps its persona’s latency on the injected clock, honours timeoutMs and abort', async () => {
    const clock = createFakeClock();
    const p = createSimulated({ clock, personas: { slow: { latencyMs: 1000 } } });
    await p('slow').doGenerate({ messages: user('q'), seed: 1 });
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(800);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(1200);
    await expect(p('slow').doGenerate({ messages: user('q'), timeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
      timeoutMs: 100,
    });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      createSimulated({ latencyScale: 0 })('ada').doGenerate({ messages: user('q'), abortSignal: controller.signal }),
    ).rejects.toThrow('stop');
  });

  it('streams the same text it generates', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const whole = await p('edda').doGenerate({ messages: user('q?'), seed: 2 });
    let streamed = '';
    let finish: unknown;
    for await (const part of p('edda').doStream!({ messages: user('q?'), seed: 2 })) {
      if (part.type === 'text-delta') streamed += part.text;
      if (part.type === 'finish') finish = part;
    }
    expect(streamed).toBe(whole.text);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'stop', usage: whole.usage });
  });

  it('rejects nonsense settings', () => {
    expect(() => createSimulated({ latencyScale: -1 })).toThrow(/latencyScale/);
    expect(() => createSimulated()('bad name')).toThrow(/letters, digits/);
    expect(() => createSimulated({ personas: { x: { quality: 2 } } })('x')).toThrow(/quality/);
  });
});

describe('simulated: stage 2 reviews', () => {
  it('writes a critique per response, a JSON block and a FINAL RANKING that agree', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const answers = await Promise.all(
      ['ada', 'cleo', 'edda'].map(
        async (n) => (await p(n).doGenerate({ messages: user(questions[2]!), seed: 3 })).text,
      ),
    );
    const review = await p('basil').doGenerate({
      messages: [
        { role: 'system', content: 'You are a careful reviewer.' },
        ...user(reviewPrompt({ question: questions[2]!, answers, nonce: 'f00d' })),
      ],
      providerOptions: { simulated: { council: reviewContext(answers) } },
      seed: 3,
    });
    expect(review.text.startsWith('[simulated]')).toBe(true);
    for (const label of ['A', 'B', 'C'])
      expect(review.text).toMatch(
        new RegExp(`^Response ${label} — strengths: .+ weaknesses: .+ score: (10|[1-9])/10$`, 'm'),
      );
    const { ranking, scores, finalRanking } = parseReview(review.text);
    expect([...ranking].sort()).toEqual(['Response A', 'Response B', 'Response C']);
    expect(finalRanking).toEqual(ranking);
    expect(Object.keys(scores).sort()).toEqual(['Response A', 'Response B', 'Response C']);
    for (const s of Object.values(scores)) expect(Number.isInteger(s) && s >= 1 && s <= 10).toBe(true);
    const ranked = ranking.map((l) => scores[l]!);
    expect([...ranked].sort((a, b) => b - a)).toEqual(ranked);
    // The critique lines carry the same scores as the JSON.
    for (const [label, score] of Object.entries(scores))
      expect(review.text).toMatch(new RegExp(`^${label} — .* score: ${score}/10$`, 'm'));
  });

  it('scores the same text the same wherever it is shown', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const answers = await Promise.all(
      ['ada', 'dmitri'].map(async (n) => (await p(n).doGenerate({ messages: user(questions[3]!), seed: 8 })).text),
    );
    const forward = `### Response A\n${answers[0]}\n\n### Response B\n${answers[1]}\n\nFINAL RANKING please.`;
    const backward = `--- Response A ---\n${answers[1]}\n--- Response B ---\n${answers[0]}\nFINAL RANKING please.`;
    const f = parseReview(
      (
        await p('cleo').doGenerate({
          messages: user(forward),
          providerOptions: { simulated: { council: reviewContext([answers[0]!, answers[1]!]) } },
          seed: 8,
        })
      ).text,
    );
    const b = parseReview(
      (
        await p('cleo').doGenerate({
          messages: user(backward),
          providerOptions: { simulated: { council: reviewContext([answers[1]!, answers[0]!]) } },
          seed: 8,
        })
      ).text,
    );
    expect(f.scores['Response A']).toBe(b.scores['Response B']);
    expect(f.scores['Response B']).toBe(b.scores['Response A']);
  });

  it('ranks better personas higher on average', async () => {
    const observations = await runCouncils({}, 30);
    const byAuthor = Object.fromEntries(
      roster.map((a) => [a, mean(observations.filter((o) => o.author === a).map((o) => o.score))]),
    );
    // Roster quality falls from ada (0.85) to edda (0.25); expected score ≈ 2 + 7q: 7.95, 6.9, 5.85, 4.8, 3.75.
    expect(byAuthor.ada).toBeGreaterThan(byAuthor.basil!);
    expect(byAuthor.basil).toBeGreaterThan(byAuthor.cleo!);
    expect(byAuthor.cleo).toBeGreaterThan(byAuthor.dmitri!);
    expect(byAuthor.dmitri).toBeGreaterThan(byAuthor.edda!);
    expect(byAuthor.ada).toBeCloseTo(7.95, 0);
    expect(byAuthor.edda).toBeCloseTo(3.75, 0);
  });

  it('with every bias off, position and length are uncorrelated with scores', async () => {
    const observations = await runCouncils({}, 80); // 80 × 5 reviewers × 5 answers = 2,000 scores
    const scores = observations.map((o) => o.score);
    // |r| < 0.08 is about 3.5 standard errors (1/√2000 ≈ 0.022) from 0.
    expect(
      Math.abs(
        pearson(
          observations.map((o) => o.position),
          scores,
        ),
      ),
    ).toBeLessThan(0.08);
    expect(
      Math.abs(
        pearson(
          observations.map((o) => o.length),
          scores,
        ),
      ),
    ).toBeLessThan(0.08);
    // Within each author too, where quality is fixed.
    for (const author of roster) {
      const mine = observations.filter((o) => o.author === author);
      expect(
        Math.abs(
          pearson(
            mine.map((o) => o.length),
            mine.map((o) => o.score),
          ),
        ),
        author,
      ).toBeLessThan(0.2);
    }
  });

  it('so is a council of any three roster members (the length of an answer says nothing of its author)', async () => {
    for (const members of [
      ['ada', 'basil', 'cleo'],
      ['ada', 'dmitri', 'edda'],
    ]) {
      const observations = await runCouncils({}, 120, members); // 120 × 3 × 3 = 1,080 scores
      const scores = observations.map((o) => o.score);
      // 1/√1080 ≈ 0.03: |r| < 0.11 is about 3.5 standard errors.
      expect(
        Math.abs(
          pearson(
            observations.map((o) => o.position),
            scores,
          ),
        ),
        members.join(),
      ).toBeLessThan(0.11);
      expect(
        Math.abs(
          pearson(
            observations.map((o) => o.length),
            scores,
          ),
        ),
        members.join(),
      ).toBeLessThan(0.11);
    }
  });

  it('a position bias favours early positions (and a negative one late positions)', async () => {
    const early = await runCouncils({ biases: { position: 2 } }, 20);
    const late = await runCouncils({ biases: { position: -2 } }, 20);
    const firstMinusLast = (obs: Observation[]) =>
      mean(obs.filter((o) => o.position === 0).map((o) => o.score)) -
      mean(obs.filter((o) => o.position === 4).map((o) => o.score));
    // +2 at the first position and −2 at the last: a gap near 4 points, a little less where scores clamp at 1 or 10.
    expect(firstMinusLast(early)).toBeGreaterThan(2.5);
    expect(firstMinusLast(late)).toBeLessThan(-2.5);
  });

  it('a length bias favours longer answers', async () => {
    const observations = await runCouncils({ biases: { length: 3 } }, 20);
    const unbiased = await runCouncils({}, 20);
    const r = (obs: Observation[]) =>
      pearson(
        obs.map((o) => Math.log(o.length)),
        obs.map((o) => o.score),
      );
    expect(r(observations) - r(unbiased)).toBeGreaterThan(0.2);
  });

  it('self-preference lifts its own answer, recognised from its writing style', async () => {
    const gap = (obs: Observation[]) =>
      mean(obs.filter((o) => o.reviewer === o.author).map((o) => o.score)) -
      mean(obs.filter((o) => o.reviewer !== o.author).map((o) => o.score));
    const own = await runCouncils({ biases: { selfPreference: 3 } }, 20);
    const none = await runCouncils({}, 20);
    // Three points, less what clamping at 10 takes off the best persona.
    expect(gap(own) - gap(none)).toBeGreaterThan(2);
    expect(Math.abs(gap(none))).toBeLessThan(0.7);
  });

  it('harshness lowers every score', async () => {
    const harsh = mean(
      (
        await runCouncils({ personas: Object.fromEntries(roster.map((n) => [n, { biases: { harshness: 2 } }])) }, 10)
      ).map((o) => o.score),
    );
    const plain = mean((await runCouncils({}, 10)).map((o) => o.score));
    expect(plain - harsh).toBeGreaterThan(1.5);
    expect(plain - harsh).toBeLessThanOrEqual(2.01);
  });
});

describe('simulated: stage 3 chairman', () => {
  it('synthesises and lists every member as a contributor with weights summing to 1, the best weighted most', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const answers = await Promise.all(
      roster.map(async (n) => ({
        id: `simulated:${n}`,
        text: (await p(n).doGenerate({ messages: user(questions[4]!), seed: 11 })).text,
      })),
    );
    const prompt = [
      '# Role\nYou are the Chairman.',
      '# Input Data\n' + answers.map((a) => `Model: ${a.id}\n${a.text}`).join('\n\n'),
      '# Output Format\nEnd with a ```json block {"contributors": [{"id", "weight", "reason"}]}.',
    ].join('\n\n');
    const result = await p('ada').doGenerate({
      messages: user(prompt),
      providerOptions: { simulated: { council: { stage: 'chairman', answers } } },
      seed: 11,
    });
    expect(result.text.startsWith('[simulated]')).toBe(true);
    const json = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(result.text)![1]!) as {
      contributors: Array<{ id: string; weight: number; reason: string }>;
    };
    expect(json.contributors.map((c) => c.id).sort()).toEqual(answers.map((a) => a.id).sort());
    expect(json.contributors.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 9);
    for (const c of json.contributors) {
      expect(c.weight).toBeGreaterThanOrEqual(0);
      expect(c.weight).toBeLessThanOrEqual(1);
      expect(c.reason.length).toBeGreaterThan(0);
    }
    expect(result.text.indexOf('```json')).toBeGreaterThan(60);
  });

  it('weights better members more, on average over many questions', async () => {
    const p = createSimulated({ latencyScale: 0 });
    const totals: Record<string, number> = {};
    for (let s = 0; s < 20; s++) {
      const q = `${questions[s % questions.length]!} (${s})`;
      const answers = await Promise.all(
        roster.map(async (n) => ({
          id: `simulated:${n}`,
          text: (await p(n).doGenerate({ messages: user(q), seed: s })).text,
        })),
      );
      const prompt = `Name the contributors.\n\n${answers.map((a) => `Model: ${a.id}\n${a.text}`).join('\n\n')}`;
      const result = await p('basil').doGenerate({
        messages: user(prompt),
        providerOptions: { simulated: { council: { stage: 'chairman', answers } } },
        seed: s,
      });
      const json = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(result.text)![1]!) as {
        contributors: Array<{ id: string; weight: number }>;
      };
      for (const c of json.contributors) totals[c.id] = (totals[c.id] ?? 0) + c.weight / 20;
    }
    expect(totals['simulated:ada']).toBeGreaterThan(totals['simulated:cleo']!);
    expect(totals['simulated:cleo']).toBeGreaterThan(totals['simulated:edda']!);
  });
});
