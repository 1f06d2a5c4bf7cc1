import type { SessionCostCap } from './council-session.js';

/** Dollars to four decimals, or two significant digits below a hundredth of a cent (a cap of $0.000001 is not $0.0000). */
const usd = (value: number): string => `$${value === 0 || value >= 0.0001 ? value.toFixed(4) : value.toPrecision(2)}`;

const KEPT_SKIPPED = {
  2: {
    name: 'review',
    kept: 'the answers of stage 1',
    skipped: 'the reviews, the ranking, the bias indicators and the synthesis',
  },
  3: { name: 'synthesis', kept: 'the answers, the reviews and the ranking', skipped: 'the synthesis' },
} as const;

/** Whether the next stage may run under the cap, what the session records about the cap, and the note that says why. */
export interface CostCapCheck {
  stop: boolean;
  costCap: SessionCostCap;
  warning: string | null;
}

/**
 * The cost cap, checked before stage 2 or 3: the session stops there (keeping what finished) when what it has
 * spent plus the stage's estimated cost would pass `maxCostUsd`. Without an estimate (no provider reported a
 * cost) the stage runs, and the note says the cap could not be applied.
 */
export function checkCostCap(options: {
  maxCostUsd: number;
  stage: 2 | 3;
  spentUsd: number | null;
  estimatedUsd: number | null;
}): CostCapCheck {
  const { maxCostUsd, stage, spentUsd, estimatedUsd } = options;
  const costCap: SessionCostCap = { maxCostUsd, spentUsd, estimatedUsd, stoppedBeforeStage: null };
  if (estimatedUsd === null) {
    return {
      stop: false,
      costCap,
      warning: `The cost cap of ${usd(maxCostUsd)} could not be applied: no provider reported a cost, so no stage's cost could be estimated.`,
    };
  }
  const total = (spentUsd ?? 0) + estimatedUsd;
  if (total <= maxCostUsd) return { stop: false, costCap, warning: null };
  const what = KEPT_SKIPPED[stage];
  return {
    stop: true,
    costCap: { ...costCap, stoppedBeforeStage: stage },
    warning:
      `Stopped by the cost cap before stage ${stage} (${what.name}): ${usd(spentUsd ?? 0)} spent and about ${usd(estimatedUsd)} more estimated for it, ` +
      `${usd(total)} in all, over the ${usd(maxCostUsd)} cap. Kept: ${what.kept}. Skipped: ${what.skipped}.`,
  };
}
