import type { BiasObservation } from '@council/bias-audit';
import type { BiasRecordColumns } from './bias-record-columns.js';
import { noRank } from './bias-record-columns.js';

/**
 * The `@council/bias-audit` observations of a window's columns, session by session. One object per
 * record: for windows the statistics still take as objects; a whole store should stay in columns.
 */
export function columnsToObservations(columns: BiasRecordColumns): BiasObservation[] {
  const out: BiasObservation[] = new Array<BiasObservation>(columns.length);
  let lastTime = Number.NaN;
  let lastIso = '';
  for (let i = 0; i < columns.length; i++) {
    const time = columns.time[i]!;
    if (time !== lastTime) {
      lastTime = time;
      lastIso = new Date(time).toISOString();
    }
    const config = columns.configVersion[i]!;
    const category = columns.queryCategory[i]!;
    const score = columns.score[i]!;
    const rank = columns.rankPosition[i]!;
    out[i] = {
      sessionId: columns.sessionIds[columns.session[i]!]!,
      timestamp: lastIso,
      reviewer: columns.models[columns.reviewer[i]!]!,
      candidate: columns.models[columns.candidate[i]!]!,
      position: columns.position[i]!,
      responseLengthChars: columns.responseLengthChars[i]!,
      score: Number.isNaN(score) ? null : score,
      rankPosition: rank === noRank ? null : rank,
      configVersion: config === 0 ? null : columns.configVersions[config - 1]!,
      queryCategory: category === 0 ? null : columns.queryCategories[category - 1]!,
    };
  }
  return out;
}
