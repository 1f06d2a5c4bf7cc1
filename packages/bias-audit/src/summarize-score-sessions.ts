import type { BiasColumns } from './bias-columns.js';
import { sourceFromColumns, summariesFromSource } from './internal/score-session-stats.js';
import type { ScoreSessionSummaries } from './score-session-summary.js';

/**
 * The score model's per-session summaries of `columns` (see `ScoreSessionSummary`): what `fitScoreModel` adds
 * up, published so that stores can be fitted together without their records (`mergeScoreSessionSummaries`)
 * and an analytics engine can compute them with a GROUP BY over sessions. Sessions without a scored record
 * have none.
 */
export function summarizeScoreSessions(columns: BiasColumns): ScoreSessionSummaries {
  return summariesFromSource(sourceFromColumns(columns), columns.sessionIds);
}
