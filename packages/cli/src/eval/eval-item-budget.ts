import type { EvalCallKind, EvalCallPrices } from './eval-call-prices.js';

/** Dollars to four decimals, or two significant digits below a hundredth of a cent, as core's cost-cap notes say them. */
export const usd = (value: number): string =>
  `$${value === 0 || value >= 0.0001 ? value.toFixed(4) : value.toPrecision(2)}`;

/** An item's cost cap and the run's prices (`--max-cost`): each grading and judging call is checked before it is made. */
export interface EvalCallBudget {
  budget: EvalItemBudget;
  prices: EvalCallPrices;
}

/** What an item's journal line records of the cost cap (`--max-cost`), when one applies. */
export interface EvalCostCapLine {
  max_cost_usd: number;
  /** What the item's calls cost (its session, the grader's and the judges' calls); null when no provider reported a cost. */
  spent_usd: number | null;
  /** The call the cap stopped before (the item's later calls were not made either), or null when it stopped none. */
  stopped_before: string | null;
  /** Why, in a sentence: what was spent, what the next call was estimated at, the cap. Null when it stopped none. */
  message: string | null;
}

/** The note a call the cap stopped carries in its journal entry (a grade's or judgement's `error`). */
export const COST_CAP_SKIPPED = 'not made: the cost cap stopped the item before it';

/**
 * One item's budget under `--max-cost`: its session's cost first, then each grading and judging call, checked before
 * it is made — spent so far, plus the estimates of calls in flight, plus this call's estimate, against the cap — and,
 * once one call would pass it, no later call of the item either (as a session stops before a stage). A call with no
 * estimate (no provider has reported a cost yet) is made, as core makes a stage it cannot estimate.
 */
export class EvalItemBudget {
  readonly #max: number | null;
  readonly #prices: EvalCallPrices;
  #spent = 0;
  #known = false;
  #reserved = 0;
  #stop: { call: string; message: string } | null = null;
  #unestimated = false;

  constructor(options: { maxCostUsd: number | null; prices: EvalCallPrices }) {
    this.#max = options.maxCostUsd;
    this.#prices = options.prices;
  }

  /** Adds a cost already paid (the item's session). */
  spend(costUsd: number | null | undefined): void {
    if (costUsd === null || costUsd === undefined) return;
    this.#spent += costUsd;
    this.#known = true;
  }

  /**
   * Whether the call may be made. Returns a settle function to call with what it reported (or null when it failed),
   * or null when the cap stops it — then it, and every later call of the item, is not made.
   */
  admit(options: {
    model: string;
    kind: EvalCallKind;
    prompt: string;
    replyTokens: number;
    /** The call in words, for the message: "the grader's call on test/beta's answer". */
    what: string;
  }): ((costUsd: number | null | undefined) => void) | null {
    if (this.#stop !== null) return null;
    const estimate = this.#max === null ? null : this.#prices.estimate(options);
    if (this.#max !== null && estimate === null) this.#unestimated = true;
    if (this.#max !== null && estimate !== null) {
      const before = this.#spent + this.#reserved;
      if (before + estimate > this.#max) {
        this.#stop = {
          call: options.what,
          message:
            `Stopped by the cost cap before ${options.what}: ${usd(before)} spent${this.#reserved > 0 ? ' or committed' : ''} and about ${usd(estimate)} more estimated for it, ` +
            `${usd(before + estimate)} in all, over the ${usd(this.#max)} cap. The item's later calls were not made either.`,
        };
        return null;
      }
    }
    const held = estimate ?? 0;
    this.#reserved += held;
    let settled = false;
    return (costUsd) => {
      if (settled) return;
      settled = true;
      this.#reserved -= held;
      this.spend(costUsd);
    };
  }

  /** The journal line's record of the cap; undefined without a cap. */
  line(): EvalCostCapLine | undefined {
    if (this.#max === null) return undefined;
    return {
      max_cost_usd: this.#max,
      spent_usd: this.#known ? this.#spent : null,
      stopped_before: this.#stop?.call ?? null,
      message: this.#stop?.message ?? null,
    };
  }

  /** Whether a call was made without an estimate (no provider had reported a cost): the cap could not be applied to it. */
  get unestimated(): boolean {
    return this.#unestimated;
  }
}
