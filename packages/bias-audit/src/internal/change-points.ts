import type { ChangePoint } from '../bias-aggregate-report.js';
import type { SessionTimeline } from './indicator-trends.js';
import type { SessionIndicators } from './session-indicators.js';

/** Where the council changed between consecutive sessions (ADR-018 "model drift"): its config versions, or its models. */
export function changePoints(spec: {
  indicators: SessionIndicators;
  models: readonly string[];
  sessionIds: readonly string[];
  timeline: SessionTimeline;
}): ChangePoint[] {
  const out: ChangePoint[] = [];
  const { modelKey, configKey, keys } = spec.indicators;
  const names = (key: string): string =>
    key
      .split(',')
      .map((id) => spec.models[Number(id)]!)
      .sort()
      .join(',');
  for (let s = 1; s < spec.sessionIds.length; s++) {
    const configChanged = configKey[s] !== configKey[s - 1];
    const modelsChanged = modelKey[s] !== modelKey[s - 1];
    // The timestamp only where something changed: a million sessions' dates as ISO strings cost a second.
    if (!configChanged && !modelsChanged) continue;
    const at = { sessionId: spec.sessionIds[s]!, timestamp: spec.timeline.iso(s) };
    if (configChanged)
      out.push({ ...at, kind: 'config_version', from: keys[configKey[s - 1]!]!, to: keys[configKey[s]!]! });
    if (modelsChanged)
      out.push({ ...at, kind: 'models', from: names(keys[modelKey[s - 1]!]!), to: names(keys[modelKey[s]!]!) });
  }
  return out;
}
