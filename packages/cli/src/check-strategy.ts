import { CouncilError, normalizeStrategyKey, resolveStrategy } from '@council/core';
import type { CouncilConfig } from '@council/core';
import { CliError } from './cli-error.js';

/**
 * Checks `--strategy` (or the configured default) and `--goal` before any session starts, so an unknown
 * strategy or a missing goal is one usage error (exit 2) rather than a failure of every prompt of a batch.
 */
export function checkStrategy(options: {
  config: CouncilConfig;
  strategy: string | undefined;
  goal: string | undefined;
}): void {
  const strategy = options.strategy ?? options.config.strategy;
  try {
    resolveStrategy(options.config, { strategy, goal: options.goal });
  } catch (error) {
    if (CouncilError.isInstance(error) && error.code === 'INVALID_OPTION') {
      throw new CliError({
        code: 'USAGE',
        message: `The "${normalizeStrategyKey(strategy)}" strategy needs a goal: add --goal "what the answer should achieve".`,
        cause: error,
      });
    }
    if (CouncilError.isInstance(error) && error.code === 'UNKNOWN_STRATEGY')
      throw new CliError({ code: 'USAGE', message: error.message, cause: error });
    throw error;
  }
}
