import type { CouncilConfig } from './council-config.js';
import { CouncilError } from './council-error.js';
import { fillTemplate } from './fill-template.js';

/** Strategy keys compare case-insensitively with `_` and `-` alike: `Risk_Averse` is `risk-averse`. */
export function normalizeStrategyKey(key: string): string {
  return key.trim().toLowerCase().replace(/_/g, '-');
}

/**
 * The strategic directive (design doc §5.3) for `strategy` from the configuration cascade, with
 * `{goal}` filled in. Throws `UNKNOWN_STRATEGY` for a key the cascade does not define, and
 * `INVALID_OPTION` when the directive needs a goal (`goal-seeking`) and none was given.
 */
export function resolveStrategy(
  config: Pick<CouncilConfig, 'strategies'>,
  options: { strategy: string; goal?: string | undefined },
): string {
  const key = normalizeStrategyKey(options.strategy);
  const directive = config.strategies[key];
  if (directive === undefined) {
    throw new CouncilError({
      code: 'UNKNOWN_STRATEGY',
      message: `Unknown strategy "${options.strategy}". Accepted strategies: ${Object.keys(config.strategies).sort().join(', ')}. Add custom ones under "strategies" in config.yaml or the organization's system-prompts.yaml.`,
    });
  }
  if (directive.includes('{goal}') && (options.goal === undefined || options.goal.trim() === '')) {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `The "${key}" strategy needs a goal: pass goal (for example "maximise test coverage").`,
    });
  }
  return fillTemplate(directive, { goal: options.goal?.trim() ?? '' });
}
