import type { CouncilConfig } from '@council/core';

/** How many calls each provider's endpoint takes at once, as `createModelResolver`'s `concurrency` option. */
export interface EndpointConcurrency {
  default?: number;
  byProvider?: Partial<Record<string, number>>;
}

/**
 * The per-endpoint concurrency of a run: `--concurrency` applies to every endpoint and wins; otherwise each
 * provider's `providers.<name>.max_concurrency` from config.yaml; a provider named by neither keeps its own
 * default (1 for the one-slot local servers ollama, llamacpp and lmstudio; 16 for the others).
 */
export function endpointConcurrency(
  config: Pick<CouncilConfig, 'providers'>,
  flag: number | undefined,
): EndpointConcurrency {
  if (flag !== undefined) return { default: flag };
  const byProvider: Record<string, number> = {};
  for (const [name, settings] of Object.entries(config.providers)) {
    if (settings.maxConcurrency !== undefined) byProvider[name] = settings.maxConcurrency;
  }
  return { byProvider };
}
