import { aggregateLeaderboards, bradleyTerry } from '@council/scoring';
import { calibratedView } from '@council/bias-audit';
import type { BiasObservation, CalibratedView } from '@council/bias-audit';
import { observationsFromSession } from '@council/core';
import type { AggregateLeaderboardEntry, Ballot, BradleyTerryEntry } from '@council/scoring';
import type { CommandContext } from '../command-context.js';
import { renderTable } from '../render-table.js';
import { loadHistory } from './history-command.js';
import { countNoun } from '../count-noun.js';
import { renderCalibratedLeaderboard } from './leaderboard-calibrated-text.js';

export interface LeaderboardCommandOptions {
  /** Only sessions of the last n days. */
  days?: number;
  /** Only sessions of this query category (coding, math, writing, analysis, general). */
  category?: string;
  /** One table per category. */
  byCategory?: boolean;
  /** Bootstrap replicates for the intervals. Default 1000. */
  bootstrap?: number;
  /** Also the calibrated view: each reviewer's offset and the position effects taken out of the scores. */
  calibrated?: boolean;
  json?: boolean;
}

export interface LeaderboardDocument {
  sessions: number;
  window: { since: string | null; until: string };
  category: string | null;
  borda: AggregateLeaderboardEntry[];
  bradleyTerry: BradleyTerryEntry[];
  /** With `--calibrated`: the scores' leaderboard raw and calibrated (analytics only: live votes are unchanged). */
  calibrated?: CalibratedView;
}

/** The standings without printing them: what `council leaderboard --json` prints and `council serve` returns. */
export async function computeLeaderboard(
  options: Omit<LeaderboardCommandOptions, 'json'>,
  ctx: CommandContext,
): Promise<{ document: LeaderboardDocument; ballots: number }> {
  const { entries } = await loadHistory(ctx);
  const now = ctx.now();
  const since = options.days === undefined ? null : new Date(now.getTime() - options.days * 86_400_000);
  const selected = entries.filter(
    (e) =>
      (since === null || Date.parse(e.session.timestamp) > since.getTime()) &&
      (options.category === undefined || e.query_metadata?.category === options.category),
  );
  const bootstrap = options.bootstrap ?? 1000;
  const borda = aggregateLeaderboards(
    selected.map((e) => ({
      id: e.session.sessionId,
      leaderboard: e.session.leaderboard,
      timestamp: e.session.timestamp,
      ...(e.query_metadata?.category ? { category: e.query_metadata.category } : {}),
    })),
    { byCategory: options.byCategory === true, bootstrap, seed: 0 },
  );
  const ballots: Ballot[] = [];
  const candidates = new Set<string>();
  for (const e of selected) {
    for (const r of e.session.stage1) if (r.text !== null) candidates.add(r.member);
    for (const review of e.session.stage2) {
      if (!review.evaluation || review.evaluation.abstained) continue;
      ballots.push({ reviewer: review.reviewer, ranking: review.evaluation.ranking, scores: review.evaluation.scores });
    }
  }
  const bt =
    candidates.size >= 2 && ballots.length > 0
      ? bradleyTerry(ballots, { candidates: [...candidates].sort(), bootstrap: Math.min(bootstrap, 1000), seed: 0 })
      : [];
  const document: LeaderboardDocument = {
    sessions: selected.length,
    window: { since: since?.toISOString() ?? null, until: now.toISOString() },
    category: options.category ?? null,
    borda,
    bradleyTerry: bt,
  };
  if (options.calibrated === true) {
    // The history keeps no question (or keeps it apart); observationsFromSession never reads one.
    const observations: BiasObservation[] = selected.flatMap((e) =>
      observationsFromSession({ ...e.session, query: '' }),
    );
    document.calibrated = calibratedView(observations, { resamples: bootstrap, seed: 1 });
  }
  return { document, ballots: ballots.length };
}

/**
 * `council leaderboard`: cross-query standings from the history: the mean of per-session Borda scores
 * (each session counts once) with a bootstrap interval, and Bradley–Terry ratings fitted to every
 * ballot's pairwise preferences, with intervals and P(best).
 */
export async function runLeaderboardCommand(options: LeaderboardCommandOptions, ctx: CommandContext): Promise<number> {
  const { document, ballots } = await computeLeaderboard(options, ctx);
  const { borda, bradleyTerry: bt } = document;
  const since = document.window.since === null ? null : new Date(document.window.since);
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  if (document.sessions === 0) {
    ctx.io.stdout(
      `No sessions${options.days ? ` in the last ${options.days} days` : ''}${options.category ? ` in category ${options.category}` : ''} in the history yet. Run "council ask" or "council batch".\n`,
    );
    return 0;
  }
  ctx.io.stdout(
    `${s.bold('Cross-query leaderboard')} · ${countNoun(document.sessions, 'session')}${since ? ` since ${since.toISOString().slice(0, 10)}` : ''}${options.category ? ` · category ${options.category}` : ''}\n`,
  );
  const groups = options.byCategory ? [...new Set(borda.map((b) => b.category))] : [null];
  for (const group of groups) {
    if (options.byCategory) ctx.io.stdout(`${s.bold(`Category: ${group ?? 'uncategorised'}`)}\n`);
    ctx.io.stdout(
      renderTable({
        head: ['rank', 'member', 'mean Borda', '95% interval', 'sessions', 'votes', 'wins'],
        align: ['right', 'left', 'right', 'right', 'right', 'right', 'right'],
        style: s,
        rows: borda
          .filter((b) => !options.byCategory || b.category === group)
          .map((b) => [
            String(b.rank),
            b.candidate,
            b.aggregateBorda.toFixed(3),
            b.interval ? `[${b.interval.lower.toFixed(3)}, ${b.interval.upper.toFixed(3)}]` : 'n/a',
            String(b.appearances),
            String(b.totalVotes),
            String(b.totalWins),
          ]),
      }),
    );
  }
  if (bt.length > 0) {
    ctx.io.stdout(`${s.bold('Bradley–Terry ratings')} (Elo scale, from ${ballots} ballots' pairwise preferences)\n`);
    ctx.io.stdout(
      renderTable({
        head: ['rank', 'member', 'rating', '95% interval', 'rank range', 'P(best)'],
        align: ['right', 'left', 'right', 'right', 'right', 'right'],
        style: s,
        rows: bt.map((b) => [
          String(b.rank),
          b.candidate,
          b.rating.toFixed(0),
          `[${b.interval.lower.toFixed(0)}, ${b.interval.upper.toFixed(0)}]`,
          `${b.rankInterval.best}–${b.rankInterval.worst}`,
          b.pBest.toFixed(2),
        ]),
      }),
    );
  }
  if (document.calibrated !== undefined) ctx.io.stdout(renderCalibratedLeaderboard(document.calibrated, s));
  return 0;
}
