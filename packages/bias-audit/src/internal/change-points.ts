import type { ChangePoint } from '../bias-aggregate-report.js';
import type { SessionTimeline } from './indicator-trends.js';

/** Where the council changed between consecutive sessions (ADR-018 "model drift"): its config versions, or its models. */
export function changePoints(spec: { modelKeys: readonly string[]; configKeys: readonly string[]; models: readonly string[]; sessionIds: readonly string[]; timeline: SessionTimeline }): ChangePoint[] {
  const out: ChangePoint[] = [];
  const names = (key: string): string => key.split(',').map((id) => spec.models[Number(id)]!).sort().join(',');
  for (let s = 1; s < spec.sessionIds.length; s++) {
    const at = { sessionId: spec.sessionIds[s]!, timestamp: spec.timeline.iso[s]! };
    if (spec.configKeys[s] !== spec.configKeys[s - 1]) out.push({ ...at, kind: 'config_version', from: spec.configKeys[s - 1]!, to: spec.configKeys[s]! });
    if (spec.modelKeys[s] !== spec.modelKeys[s - 1]) out.push({ ...at, kind: 'models', from: names(spec.modelKeys[s - 1]!), to: names(spec.modelKeys[s]!) });
  }
  return out;
}
