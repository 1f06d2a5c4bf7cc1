import type { CompleteBiasColumns } from './bias-columns.js';
import { noRank } from './bias-columns.js';
import type { BiasObservation } from './bias-observation.js';

/**
 * Observations as `BiasColumns`: sessions ordered by their earliest observation (ties by id), each session's
 * observations in the given order. For callers that hold observations; a store is read as columns directly.
 */
export function observationsToColumns(observations: readonly BiasObservation[]): CompleteBiasColumns {
  const models: string[] = [];
  const modelIndex = new Map<string, number>();
  const intern = (names: string[], index: Map<string, number>, name: string): number => {
    let i = index.get(name);
    if (i === undefined) {
      i = names.length;
      names.push(name);
      index.set(name, i);
    }
    return i;
  };
  const configVersions: string[] = [];
  const configIndex = new Map<string, number>();
  const queryCategories: string[] = [];
  const categoryIndex = new Map<string, number>();
  const bySession = new Map<string, { time: number; items: number[] }>();
  observations.forEach((o, i) => {
    const time = Date.parse(o.timestamp);
    const session = bySession.get(o.sessionId);
    if (session === undefined) bySession.set(o.sessionId, { time, items: [i] });
    else {
      session.items.push(i);
      if (time < session.time) session.time = time;
    }
  });
  const sessionIds = [...bySession.keys()].sort(
    (a, b) => bySession.get(a)!.time - bySession.get(b)!.time || (a < b ? -1 : a > b ? 1 : 0),
  );
  const n = observations.length;
  const columns = {
    length: n,
    session: new Uint32Array(n),
    reviewer: new Uint16Array(n),
    candidate: new Uint16Array(n),
    position: new Uint32Array(n),
    responseLengthChars: new Uint32Array(n),
    score: new Float64Array(n),
    rankPosition: new Uint32Array(n),
    time: new Float64Array(n),
    configVersion: new Uint16Array(n),
    queryCategory: new Uint16Array(n),
    positionIsDisplayOrder: new Uint8Array(n),
    sessionIds,
    sessionTime: new Float64Array(sessionIds.length),
    sessionStart: new Uint32Array(sessionIds.length + 1),
    models,
    configVersions,
    queryCategories,
  };
  let at = 0;
  sessionIds.forEach((id, s) => {
    const session = bySession.get(id)!;
    columns.sessionStart[s] = at;
    columns.sessionTime[s] = session.time;
    for (const i of session.items) {
      const o = observations[i]!;
      columns.session[at] = s;
      columns.reviewer[at] = intern(models, modelIndex, o.reviewer);
      columns.candidate[at] = intern(models, modelIndex, o.candidate);
      columns.position[at] = o.position;
      columns.responseLengthChars[at] = o.responseLengthChars;
      columns.score[at] = o.score ?? Number.NaN;
      columns.rankPosition[at] = o.rankPosition ?? noRank;
      columns.time[at] = Date.parse(o.timestamp);
      columns.configVersion[at] =
        o.configVersion === null ? 0 : intern(configVersions, configIndex, o.configVersion) + 1;
      columns.queryCategory[at] =
        o.queryCategory === null ? 0 : intern(queryCategories, categoryIndex, o.queryCategory) + 1;
      columns.positionIsDisplayOrder[at] = 1;
      at++;
    }
  });
  columns.sessionStart[sessionIds.length] = at;
  return columns;
}
