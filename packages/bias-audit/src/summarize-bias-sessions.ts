import type { BiasColumns } from './bias-columns.js';
import type { BiasSessionSummaries, BiasSessionSummary } from './bias-session-summary.js';
import { BIAS_SESSION_SUMMARY_VERSION } from './bias-session-summary.js';
import { publishIndicators } from './internal/indicator-session-codec.js';
import { columnNames, publishScoreStats, sourceFromColumns } from './internal/score-session-stats.js';
import { indicatorSessionStats, Scratch } from './internal/session-indicators.js';
import type { ScoreSessionSummary } from './score-session-summary.js';

const noScores = (): ScoreSessionSummary => ({
  columns: [],
  records: [],
  xtx: [],
  xty: [],
  yty: 0,
  answers: [],
  pairs: [],
});

/**
 * The per-session summaries of `columns` (see `BiasSessionSummary`): what `aggregateBiasAudit` adds up,
 * published so that stores can be reported together without their records (`mergeBiasSessionSummaries`)
 * and an analytics engine can compute them with a GROUP BY over sessions.
 */
export function summarizeBiasSessions(columns: BiasColumns): BiasSessionSummaries {
  const source = sourceFromColumns(columns);
  const names = columnNames(source);
  const models = columns.models;
  const scoreParts = new Map<number, ScoreSessionSummary>();
  source.forEachSession((stats) => scoreParts.set(stats.session, publishScoreStats(stats, { names, models })));
  const scratch = new Scratch();
  const sessions: BiasSessionSummary[] = [];
  for (let s = 0; s < columns.sessionIds.length; s++) {
    const score = scoreParts.get(s) ?? noScores();
    // Reused by the next session's call: the summary below copies what it keeps.
    const indicators = indicatorSessionStats(columns, { s, scratch, blocks: true });
    sessions.push({
      session: columns.sessionIds[s]!,
      time: new Date(columns.sessionTime[s]!).toISOString(),
      records: columns.sessionStart[s + 1]! - columns.sessionStart[s]!,
      members: indicators.members.map((m) => models[m]!).sort(),
      configVersions: [...indicators.configVersions],
      score,
      indicators: publishIndicators(indicators, models),
    });
  }
  return { version: BIAS_SESSION_SUMMARY_VERSION, sessions };
}
