import type { ChangePoint } from '../bias-aggregate-report.js';
import type { SessionTimeline } from './indicator-trends.js';
import type { SessionIndicators } from './session-indicators.js';

/** Where the council changed between consecutive sessions (ADR-018 "model drift"): its config versions, or its models. */
export function changePoints(spec: { indicators: SessionIndicators; models: readonly string[]; sessionIds: readonly string[]; timeline: SessionTimeline }): ChangePoint[] {
  const out: ChangePoint[] = [];
  const { modelKey, configKey, keys } = spec.indicators;
  const names = (key: string): string => key.split(',').map((id) => spec.models[Number(id)]!).sort().join(',');
  for (let s = 1; s < spec.sessionIds.length; s++) {
    const at = { sessionId: spec.sessionIds[s]!, timestamp: spec.timeline.iso(s) };
    if (configKey[s] !== configKey[s - 1]) out.push({ ...at, kind: 'config_version', from: keys[configKey[s - 1]!]!, to: keys[configKey[s]!]! });
    if (modelKey[s] !== modelKey[s - 1]) out.push({ ...at, kind: 'models', from: names(keys[modelKey[s - 1]!]!), to: names(keys[modelKey[s]!]!) });
  }
  return out;
}
