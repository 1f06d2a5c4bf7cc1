import type { BiasColumns } from '../bias-columns.js';
import type { BiasSessionSummaries } from '../bias-session-summary.js';
import type { ScoreModelFit } from '../fit-score-model.js';
import { fitCheckedSummaries, fitScoreModel } from '../fit-score-model.js';
import { indicatorsFromSummary } from './indicator-session-codec.js';
import type { PositionDesign } from './position-design.js';
import { positionDesignFromColumns, positionDesignFromSummaries } from './position-design.js';
import type { SessionIndicators } from './session-indicators.js';
import { collectSessionIndicators, foldSessionIndicators } from './session-indicators.js';

/** The sessions a report is made of, whichever form they came in: records as columns, or published summaries. */
export interface AuditSessions {
  /** Oldest first. */
  sessionIds: readonly string[];
  /** Per session: its earliest record's time (epoch ms). */
  sessionTime: Float64Array;
  /** Every member, the index the indicators use. */
  models: readonly string[];
  /** Records, scored or not. */
  observations: number;
  /** The score model; `lengthWithoutPosition` as `FitScoreModelOptions` has it (orders sorted by length). */
  fit: (level: number, lengthWithoutPosition?: boolean) => ScoreModelFit;
  indicators: (options: { blocks: boolean }) => SessionIndicators;
  /** How the display positions of the scored records were assigned (`positionIdentifiability` judges it). */
  positionDesign: () => PositionDesign;
  /** The records, where the report was given records (null for summaries): the drift test reads them per session. */
  columns: BiasColumns | null;
}

export function sessionsFromColumns(columns: BiasColumns): AuditSessions {
  return {
    sessionIds: columns.sessionIds,
    sessionTime: columns.sessionTime,
    models: columns.models,
    observations: columns.length,
    fit: (level, lengthWithoutPosition) => fitScoreModel(columns, { level, lengthWithoutPosition }),
    indicators: (options) => collectSessionIndicators(columns, options),
    positionDesign: () => positionDesignFromColumns(columns),
    columns,
  };
}

/** Summaries already checked (`assertBiasSessionSummaries`); members indexed in name order. */
export function sessionsFromSummaries(summaries: BiasSessionSummaries): AuditSessions {
  const { sessions } = summaries;
  const models = [...new Set(sessions.flatMap((s) => s.members))].sort();
  const modelIndex = new Map(models.map((name, m) => [name, m]));
  return {
    sessionIds: sessions.map((s) => s.session),
    sessionTime: Float64Array.from(sessions, (s) => Date.parse(s.time)),
    models,
    observations: sessions.reduce((n, s) => n + s.records, 0),
    fit: (level, lengthWithoutPosition) => fitCheckedSummaries(summaries, level, lengthWithoutPosition),
    positionDesign: () => positionDesignFromSummaries(summaries, models),
    columns: null,
    indicators: (options) => {
      let maxPosition = -1;
      for (const s of sessions) for (const p of s.indicators.positions) maxPosition = Math.max(maxPosition, p.position);
      const sessionsAtPosition = new Int32Array(maxPosition + 1);
      for (const s of sessions) for (const p of s.indicators.positions) sessionsAtPosition[p.position]!++;
      return foldSessionIndicators(
        { sessions: sessions.length, models: models.length, sessionsAtPosition, blocks: options.blocks },
        (visit) =>
          sessions.forEach((s, session) =>
            visit(
              indicatorsFromSummary(s.indicators, {
                session,
                members: s.members,
                configVersions: s.configVersions,
                modelIndex,
              }),
            ),
          ),
      );
    },
  };
}
