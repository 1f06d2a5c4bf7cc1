import type { Usage } from '@council/providers';
import type { SessionUsage } from './council-session.js';

/** Tokens and cost over some calls (failed calls count as null); cost stays null until a provider reports one. */
export function sumUsage(usages: readonly (Usage | null)[]): SessionUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | null = null;
  for (const usage of usages) {
    if (!usage) continue;
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    if (usage.costUsd !== undefined) costUsd = (costUsd ?? 0) + usage.costUsd;
  }
  return { inputTokens, outputTokens, tokens: inputTokens + outputTokens, costUsd };
}
