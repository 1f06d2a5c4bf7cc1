import type { Clock } from './clock.js';
import type {
  CouncilCallContext,
  CouncilCallStage,
  CouncilMemberAnswer,
  CouncilReviewedResponse,
} from './council-call-context.js';
import type { GenerateOptions, GenerateResult, LanguageModelV1, StreamPart } from './language-model-v1.js';
import { createMulberry32FromParts } from './create-mulberry32-from-parts.js';
import { hashString } from './hash-string.js';
import { normalDraw } from './normal-draw.js';
import type { SimulatedPersona } from './simulated-persona.js';
import { parseSimulatedProviderOptions } from './simulated-provider-options.js';
import {
  askedQuestion,
  classifySentences,
  composeAnswer,
  detectStyle,
  perceivedQuality,
  simulatedMarker,
  textRandom,
  trimToSignOff,
} from './simulated-text.js';
import { TimeoutError } from './timeout-error.js';

/** Which stage a call plays, as the simulator reads it: its `providerOptions.simulated.council` stage, else `answer`. */
export type SimulatedRole = CouncilCallStage;

function strengths(q: number): string {
  if (q >= 0.7) return 'concrete, actionable advice with explicit trade-offs and examples';
  if (q >= 0.4) return 'some specific, usable points';
  return 'a readable, friendly framing of the question';
}

function weaknesses(q: number): string {
  if (q >= 0.7) return 'a few sentences could be cut without loss';
  if (q >= 0.4) return 'generic sentences dilute the specific advice';
  return 'mostly generic statements with little to act on';
}

function reason(q: number): string {
  if (q >= 0.7) return 'Most concrete, actionable points (trade-offs, examples, criteria).';
  if (q >= 0.4) return 'Some useful specifics among general remarks.';
  return 'Mostly general framing; little of it was used.';
}

/** Splits 1 into hundredths in proportion to `raw` (largest remainder), so the weights sum to 1. */
function hundredths(raw: readonly number[]): number[] {
  const total = raw.reduce((a, b) => a + b, 0);
  const exact = raw.map((r) => (r / total) * 100);
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, rem: e - Math.floor(e) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors.map((f) => f / 100);
}

/** A deterministic offline model that plays one persona in all three council stages. */
export class SimulatedModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'simulated';
  readonly modelId: string;
  readonly persona: SimulatedPersona;
  readonly #seed: number;
  readonly #latencyScale: number;
  readonly #clock: Clock;

  constructor(options: { name: string; persona: SimulatedPersona; seed: number; latencyScale: number; clock: Clock }) {
    this.modelId = options.name;
    this.persona = options.persona;
    this.#seed = options.seed;
    this.#latencyScale = options.latencyScale;
    this.#clock = options.clock;
  }

  /**
   * The text this persona writes for a call (no latency). The stage and the answers it reviews or
   * synthesises come from the call's `providerOptions.simulated.council` context, never from the prompt's
   * wording; a call without one is a question to answer. Malformed simulated options throw (`INVALID_SETTINGS`).
   */
  respond(options: Pick<GenerateOptions, 'messages' | 'seed' | 'providerOptions'>): {
    role: SimulatedRole;
    text: string;
  } {
    const { council } = parseSimulatedProviderOptions(options.providerOptions, this.modelId);
    return this.#play(options, council ?? { stage: 'answer' });
  }

  #play(
    options: Pick<GenerateOptions, 'messages' | 'seed'>,
    council: CouncilCallContext,
  ): { role: SimulatedRole; text: string } {
    const prompt = options.messages.map((m) => m.content).join('\n\n');
    const seed = options.seed ?? this.#seed;
    const role = council.stage;
    switch (council.stage) {
      case 'chairman':
        return { role, text: this.#chairman(council.answers) };
      case 'review':
        return { role, text: this.#review(council.responses, seed) };
      case 'answer': {
        const question = askedQuestion(
          [...options.messages].reverse().find((m) => m.role === 'user')?.content ?? prompt,
        );
        const random = createMulberry32FromParts([seed, this.modelId, hashString(prompt), 'answer']);
        const sentences = Math.max(1, Math.round(this.persona.answerSentences * (0.6 + 0.8 * random())));
        return {
          role,
          text: composeAnswer({
            question,
            quality: this.persona.quality,
            sentences,
            style: this.persona.style,
            random,
          }),
        };
      }
    }
  }

  #review(blocks: readonly CouncilReviewedResponse[], seed: number): string {
    const { biases, noise } = this.persona;
    const lengths = blocks.map((b) => Math.max(1, trimToSignOff(b.text).length));
    const meanLength = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
    const rated = blocks.map((block, i) => {
      const q = perceivedQuality(block.text);
      // Noise keyed on the answer itself (not on where it is shown, nor on prompt text a block absorbed).
      const core = trimToSignOff(block.text);
      const jitter = normalDraw(textRandom([seed, this.modelId, 'score'], core)) * noise;
      const position = blocks.length > 1 ? biases.position * (1 - (2 * i) / (blocks.length - 1)) : 0;
      const length = biases.length * Math.log2(lengths[i]! / meanLength);
      const self = detectStyle(block.text) === this.persona.style ? biases.selfPreference : 0;
      // 2 + 7q keeps an unbiased score off the 1 and 10 bounds, where clamping would tie it to length.
      const raw = 2 + 7 * q + jitter + position + length + self - biases.harshness;
      return {
        label: block.label,
        q,
        raw,
        score: Math.min(10, Math.max(1, Math.round(raw))),
        tie: textRandom([seed, this.modelId, 'tie'], core)(),
      };
    });
    const ranking = [...rated].sort((a, b) => b.raw - a.raw || a.tie - b.tie).map((r) => r.label);
    const critiques = rated.map(
      (r) => `${r.label} — strengths: ${strengths(r.q)}. weaknesses: ${weaknesses(r.q)}. score: ${r.score}/10`,
    );
    const json = JSON.stringify({ ranking, scores: Object.fromEntries(rated.map((r) => [r.label, r.score])) });
    return [
      `${simulatedMarker} Evaluation by simulated reviewer ${this.modelId}.`,
      ...critiques,
      '```json\n' + json + '\n```',
      'FINAL RANKING:\n' + ranking.map((label, i) => `${i + 1}. ${label}`).join('\n'),
    ].join('\n\n');
  }

  #chairman(answers: readonly CouncilMemberAnswer[]): string {
    const members = answers.map((m) => ({ id: m.id, text: m.text.trim(), q: perceivedQuality(m.text) }));
    const weights = members.length === 0 ? [] : hundredths(members.map((m) => (0.05 + m.q) ** 2));
    const order = members
      .map((m, i) => ({ ...m, weight: weights[i]! }))
      .sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));
    const points = [...new Set(order.flatMap((m) => classifySentences(m.text).substantive))].slice(0, 3);
    const contributors = order.map((m) => ({ id: m.id, weight: m.weight, reason: reason(m.q) }));
    return [
      `${simulatedMarker} Synthesis by simulated chairman ${this.modelId}, drawing on ${members.length} answer${members.length === 1 ? '' : 's'}.`,
      points.length > 0
        ? points.join(' ')
        : 'The answers offered little specific advice; start small and measure before committing.',
      '```json\n' + JSON.stringify({ contributors }) + '\n```',
    ].join('\n\n');
  }

  async #wait(options: GenerateOptions, prompt: string): Promise<void> {
    const random = createMulberry32FromParts([options.seed ?? this.#seed, this.modelId, hashString(prompt), 'latency']);
    const ms = this.persona.latencyMs * (0.8 + 0.4 * random()) * this.#latencyScale;
    if (options.timeoutMs !== undefined && ms > options.timeoutMs) {
      await this.#clock.sleep(options.timeoutMs, options.abortSignal);
      throw new TimeoutError({
        timeoutMs: options.timeoutMs,
        message: `The simulated call to ${this.modelId} did not finish within ${options.timeoutMs} ms (its persona takes about ${Math.round(ms)} ms). Raise timeoutMs.`,
      });
    }
    if (ms > 0) await this.#clock.sleep(ms, options.abortSignal);
    else if (options.abortSignal?.aborted) throw options.abortSignal.reason;
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    // Checked before the persona's latency, so a malformed call fails at once.
    const { council } = parseSimulatedProviderOptions(options.providerOptions, this.modelId);
    const started = this.#clock.now();
    const prompt = options.messages.map((m) => m.content).join('\n\n');
    await this.#wait(options, prompt);
    const { text } = this.#play(options, council ?? { stage: 'answer' });
    const result: GenerateResult = {
      text,
      usage: { inputTokens: Math.ceil(prompt.length / 4), outputTokens: Math.ceil(text.length / 4), costUsd: 0 },
      finishReason: 'stop',
      latencyMs: this.#clock.now() - started,
      responseId: `sim-${hashString(`${this.modelId}\u0000${text}`).toString(16)}`,
      responseModelId: `simulated:${this.modelId}`,
    };
    if (options.seed !== undefined) result.seed = options.seed;
    return result;
  }

  async *doStream(options: GenerateOptions): AsyncIterable<StreamPart> {
    const result = await this.doGenerate(options);
    for (let i = 0; i < result.text.length; i += 16) yield { type: 'text-delta', text: result.text.slice(i, i + 16) };
    yield {
      type: 'finish',
      finishReason: result.finishReason,
      usage: result.usage,
      ...(result.responseId ? { responseId: result.responseId } : {}),
    };
  }
}
