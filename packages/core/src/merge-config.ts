import type { CouncilConfig, CouncilConfigLayer } from './council-config.js';
import { normalizeStrategyKey } from './resolve-strategy.js';

/**
 * Applies cascade layers over a base, later layers winning key by key. `timeouts`, `strategies`, `pools` and
 * `providers` and `modelOptions` (each provider's or model's settings too) merge one level deep (an organization can add one strategy without restating the others);
 * strategy keys are normalised (`risk_averse` → `risk-averse`). Layers must already be validated.
 */
export function mergeConfig(base: Readonly<CouncilConfig>, ...layers: readonly CouncilConfigLayer[]): CouncilConfig {
  const merged: CouncilConfig = {
    ...base,
    timeouts: { ...base.timeouts },
    strategies: { ...base.strategies },
    pools: { ...base.pools },
    providers: Object.fromEntries(Object.entries(base.providers).map(([name, p]) => [name, { ...p }])),
    modelOptions: Object.fromEntries(Object.entries(base.modelOptions ?? {}).map(([id, o]) => [id, { ...o }])),
    members: [...base.members],
    chairmanFallbacks: [...base.chairmanFallbacks],
  };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      if (key === 'timeouts')
        Object.assign(
          merged.timeouts,
          Object.fromEntries(Object.entries(value as object).filter(([, v]) => v !== undefined)),
        );
      else if (key === 'strategies') {
        for (const [name, directive] of Object.entries(value as Record<string, string>))
          merged.strategies[normalizeStrategyKey(name)] = directive;
      } else if (key === 'pools') merged.pools = { ...merged.pools, ...(value as Record<string, string[]>) };
      else if (key === 'providers') {
        for (const [name, settings] of Object.entries(value as Record<string, object>))
          merged.providers[name] = { ...merged.providers[name], ...settings };
      } else if (key === 'modelOptions') {
        for (const [id, options] of Object.entries(value as Record<string, object>))
          merged.modelOptions[id] = { ...merged.modelOptions[id], ...options };
      } else if (key === 'strategy') merged.strategy = normalizeStrategyKey(value as string);
      else
        (merged as unknown as Record<string, unknown>)[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
    }
  }
  return merged;
}
