import type { Usage } from '@council/providers';
import type { sessionDocument } from '../session-document.js';

/** A call eval makes beside the sessions: a grader's grading of an answer, or a member's review as a judge. */
export type EvalCallKind = 'grade' | 'review';

/** About four characters a token: core's estimate for text whose tokens no provider counted. */
export const approxTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * What eval has learnt of the models' prices in this run, to estimate a call before making it as core estimates a
 * stage: dollars per token of each model (its reported cost over its input + output tokens), and how long each model's
 * replies of each kind were. Learnt from every call that reported a cost: the sessions' answers, reviews and
 * syntheses, the grader's and the judges' calls.
 */
export class EvalCallPrices {
  readonly #rate = new Map<string, { usd: number; tokens: number }>();
  readonly #output = new Map<string, { tokens: number; calls: number }>();

  /** Learns from one call's reported usage (nothing when it reported no cost or no tokens). */
  see(options: { model: string; kind: EvalCallKind | 'answer'; usage: Partial<Usage> | null | undefined }): void {
    const { usage } = options;
    const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
    if (usage?.costUsd !== undefined && tokens > 0) {
      const r = this.#rate.get(options.model) ?? { usd: 0, tokens: 0 };
      this.#rate.set(options.model, { usd: r.usd + usage.costUsd, tokens: r.tokens + tokens });
    }
    if (options.kind !== 'answer' && usage?.outputTokens !== undefined && usage.outputTokens > 0) {
      const key = `${options.kind}\u0000${options.model}`;
      const o = this.#output.get(key) ?? { tokens: 0, calls: 0 };
      this.#output.set(key, { tokens: o.tokens + usage.outputTokens, calls: o.calls + 1 });
    }
  }

  /** Learns from a session's calls: each answer's and review's model, the synthesis's chairman. */
  seeSession(session: ReturnType<typeof sessionDocument>): void {
    for (const s of session.stage1) this.see({ model: s.model, kind: 'answer', usage: s.usage });
    for (const r of session.stage2) this.see({ model: r.model, kind: 'review', usage: r.usage });
    if (session.synthesis) this.see({ model: session.synthesis.model, kind: 'answer', usage: session.synthesis.usage });
  }

  /**
   * A call's estimated cost, before it is made: its prompt (about four characters a token) plus a reply as long as
   * that model's replies of the kind so far in this run, else `replyTokens` (the caller's cautious guess: as long as
   * the answers it reads), at the model's price per token, else the mean price of the models seen. Null when no call
   * of the run has reported a cost: then nothing can be estimated.
   */
  estimate(options: { model: string; kind: EvalCallKind; prompt: string; replyTokens: number }): number | null {
    const rates = [...this.#rate.values()].map((r) => r.usd / r.tokens);
    if (rates.length === 0) return null;
    const own = this.#rate.get(options.model);
    const rate = own === undefined ? rates.reduce((a, b) => a + b, 0) / rates.length : own.usd / own.tokens;
    const seen = this.#output.get(`${options.kind}\u0000${options.model}`);
    const reply = seen === undefined ? options.replyTokens : seen.tokens / seen.calls;
    return (approxTokens(options.prompt) + reply) * rate;
  }
}
