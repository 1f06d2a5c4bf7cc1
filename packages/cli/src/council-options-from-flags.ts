import type { RunCouncilOptions } from '@council/core';
import { omitUndefined } from './omit-undefined.js';
import type { CouncilRunFlags } from './parse-council-run-flags.js';

/**
 * What `ask` and `batch` pass `runCouncil` from the shared council flags: the strategy, goal, mode, order and cost
 * cap when given, no synthesis with `--no-synthesis`, and `--timeout` as the deadline of every stage.
 */
export function councilOptionsFromFlags(
  flags: Partial<Pick<CouncilRunFlags, 'strategy' | 'goal' | 'mode' | 'order' | 'synthesis' | 'timeoutMs'>> & {
    maxCostUsd?: number | undefined;
  },
): Pick<RunCouncilOptions, 'strategy' | 'goal' | 'mode' | 'order' | 'maxCostUsd' | 'synthesis' | 'timeouts'> {
  const { timeoutMs } = flags;
  return {
    ...omitUndefined({
      strategy: flags.strategy,
      goal: flags.goal,
      mode: flags.mode,
      order: flags.order,
      maxCostUsd: flags.maxCostUsd,
    }),
    ...(flags.synthesis === false ? { synthesis: false } : {}),
    ...(timeoutMs === undefined ? {} : { timeouts: { stage1Ms: timeoutMs, stage2Ms: timeoutMs, stage3Ms: timeoutMs } }),
  };
}
