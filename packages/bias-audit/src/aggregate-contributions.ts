import { BiasAuditError } from './bias-audit-error.js';
import type { BiasWindowOptions } from './bias-window.js';
import { movedWindowOptionProblem, orderSessionsByStart, parseBiasWindow } from './bias-window.js';
import { boundedMeanInterval } from './bounded-mean-interval.js';
import { confidenceTier } from './confidence-tier.js';
import type { ContributionInput, ContributionsReport, MeanWeight, MemberContribution } from './contributions-report.js';
import { wilsonInterval } from './wilson-interval.js';

export interface AggregateContributionsOptions {
  /**
   * The window of sessions, as bias-audit's window takes them: `since` (ISO 8601 or a Date) keeps the sessions at or
   * after it, then `sessions` the last N, by session time (its earliest record), ties by id. Default: every session.
   */
  window?: Pick<BiasWindowOptions, 'sessions' | 'since'>;
  /** Confidence level of the intervals; default 0.95. */
  level?: number;
}

interface SessionGroup {
  id: string;
  time: number;
  timestamp: string;
  strategy: string;
  block: boolean;
  rows: ContributionInput[];
}

function invalidOption(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_OPTION', message: `aggregateContributions: ${message}` });
}

function invalidInput(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_INPUT', message: `aggregateContributions: ${message}` });
}

/** Groups the records by session and checks each session holds one record per member and agrees on its block. */
function groupSessions(records: readonly ContributionInput[]): SessionGroup[] {
  const sessions = new Map<string, SessionGroup>();
  for (const record of records) {
    const time = Date.parse(record.timestamp);
    if (Number.isNaN(time))
      throw invalidInput(
        `session ${record.sessionId}: timestamp ${JSON.stringify(record.timestamp)} is not an ISO 8601 date-time.`,
      );
    if (record.weight !== null && !(record.weight >= 0 && record.weight <= 1))
      throw invalidInput(
        `session ${record.sessionId}, member ${record.member}: weight must be from 0 to 1 or null, got ${String(record.weight)}.`,
      );
    let group = sessions.get(record.sessionId);
    if (group === undefined) {
      group = {
        id: record.sessionId,
        time,
        timestamp: record.timestamp,
        strategy: record.strategy,
        block: record.weight !== null,
        rows: [],
      };
      sessions.set(record.sessionId, group);
    } else if (group.block !== (record.weight !== null)) {
      throw invalidInput(
        `session ${record.sessionId} has weights for some members and none (null) for others; a session has one contributors block or none.`,
      );
    } else if (group.rows.some((r) => r.member === record.member)) {
      throw invalidInput(
        `session ${record.sessionId} has member ${record.member} twice; give one record per member and session (readContributionRecords keeps the first).`,
      );
    }
    if (time < group.time) {
      group.time = time;
      group.timestamp = record.timestamp;
    }
    group.rows.push(record);
  }
  const groups = [...sessions.values()];
  const order = orderSessionsByStart(
    Array.from(groups.keys()),
    groups.map((g) => g.time),
    groups.map((g) => g.id),
  );
  return order.map((i) => groups[i]!);
}

function meanWeight(values: readonly number[], level: number): MeanWeight {
  const interval = boundedMeanInterval(values, level);
  return { ...interval, tier: confidenceTier(interval.n) };
}

/**
 * Influence shares across sessions (design doc 004 §7–§8.2): for each member, the mean of its per-session weight
 * in the chairman's contributors block (0 when the block does not credit it) over the sessions it sat in that had
 * a block — each session one independent unit — with a Wilson-type interval for bounded means
 * (`boundedMeanInterval`), ADR-018's confidence tier, how often it was credited, and beside it how often it led
 * the stage-2 vote (Wilson interval over the sessions it sat in). Also the member × strategy matrix of mean
 * weights. Throws `BiasAuditError`: `INVALID_OPTION` for a bad window, `INVALID_INPUT` for inconsistent records.
 */
export function aggregateContributions(
  records: readonly ContributionInput[],
  options: AggregateContributionsOptions = {},
): ContributionsReport {
  const moved = movedWindowOptionProblem(options);
  if (moved !== undefined) throw invalidOption(moved);
  // Contributions have no end or span of days: only the window's sessions and since apply.
  const { sessions: last, since } = parseBiasWindow(options.window ?? {}, { caller: 'aggregateContributions' });
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw invalidOption(`level must be between 0 and 1, got ${String(level)}.`);
  let sessions = groupSessions(records);
  if (since !== undefined) sessions = sessions.filter((s) => s.time >= since.getTime());
  if (sessions.length > last) sessions = sessions.slice(sessions.length - last);

  const weights = new Map<string, number[]>();
  const satIn = new Map<string, number>();
  const wins = new Map<string, number>();
  const cells = new Map<string, Map<string, number[]>>();
  for (const session of sessions) {
    for (const row of session.rows) {
      satIn.set(row.member, (satIn.get(row.member) ?? 0) + 1);
      if (row.voteWinner) wins.set(row.member, (wins.get(row.member) ?? 0) + 1);
      if (!weights.has(row.member)) weights.set(row.member, []);
      if (row.weight === null) continue;
      weights.get(row.member)!.push(row.weight);
      const byStrategy = cells.get(row.member) ?? new Map<string, number[]>();
      cells.set(row.member, byStrategy);
      byStrategy.set(session.strategy, [...(byStrategy.get(session.strategy) ?? []), row.weight]);
    }
  }

  const members: MemberContribution[] = [...weights.entries()].map(([member, values]) => {
    const sat = satIn.get(member)!;
    const won = wins.get(member) ?? 0;
    const winShare = { estimate: won / sat, ...wilsonInterval(won, sat, level), n: sat };
    return {
      member,
      satIn: sat,
      sessions: values.length,
      credited: values.filter((w) => w > 0).length,
      meanWeight: meanWeight(values, level),
      wins: won,
      winShare,
    };
  });
  members.sort(
    (a, b) =>
      (b.meanWeight.estimate ?? -1) - (a.meanWeight.estimate ?? -1) ||
      (a.member < b.member ? -1 : a.member > b.member ? 1 : 0),
  );
  const strategies = [...new Set(sessions.filter((s) => s.block).map((s) => s.strategy))].sort();
  const heatmap = {
    strategies,
    cells: members.flatMap(({ member }) =>
      strategies
        .filter((strategy) => cells.get(member)?.has(strategy))
        .map((strategy) => ({ member, strategy, meanWeight: meanWeight(cells.get(member)!.get(strategy)!, level) })),
    ),
  };
  return {
    sessions: sessions.length,
    sessionsWithBlock: sessions.filter((s) => s.block).length,
    window: {
      since: since === undefined ? null : since.toISOString(),
      maxSessions: Number.isFinite(last) ? last : null,
      first: sessions[0]?.timestamp ?? null,
      last: sessions.at(-1)?.timestamp ?? null,
    },
    level,
    members,
    heatmap,
  };
}
