import { aggregateLeaderboards, bradleyTerry, ScoringError, styleControlledBradleyTerry } from '@council/scoring';
import type { StyleControlledRatings, StyledSession } from '@council/scoring';
import { calibratedView, effectiveJudges } from '@council/bias-audit';
import type { BiasObservation, CalibratedView, EffectiveJudges } from '@council/bias-audit';
import { observationsFromSession } from '@council/core';
import type { AggregateLeaderboardEntry, Ballot, BradleyTerryEntry } from '@council/scoring';
import type { CommandContext } from '../command-context.js';
import { renderTable } from '../render-table.js';
import { loadHistory } from './history-command.js';
import { countNoun } from '../count-noun.js';
import type { HistoryEntry } from '../history-entry.js';
import { styleStatistics } from '../style-mimicry.js';
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
  /**
   * With `--calibrated`: the scores' leaderboard raw and calibrated, with how many independent judges the reviewers
   * are worth (analytics only: live votes are unchanged).
   */
  calibrated?: CalibratedView & { effectiveJudges: EffectiveJudges };
  /** With `--calibrated`: Bradley–Terry from the same ballots with the answers' length and style as covariates, beside the plain fit. */
  styleControlled?: StyleControlledRatings | StyleNotComputable;
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
    document.calibrated = {
      ...calibratedView(observations, { resamples: bootstrap, seed: 1 }),
      effectiveJudges: effectiveJudges(observations, { resamples: bootstrap, seed: 1 }),
    };
    document.styleControlled = styleControlledLeaderboard(selected, Math.min(bootstrap, 1000));
  }
  return { document, ballots: ballots.length };
}

/** Style-controlled ratings that could not be fitted: why in words, and (where the fit refused) its own message. */
export interface StyleNotComputable {
  computable: false;
  reason: string;
  detail?: string;
}

const STYLE_FEATURES = [
  'length_per_1000_chars',
  'words_per_sentence',
  'list_share',
  'heading_share',
  'code_share',
  'emphasis_per_100_words',
] as const;

/**
 * Style-controlled Bradley–Terry over the history's sessions: each answer's length in 1,000s of characters (as the bias
 * report's length slope reads it) and style statistics (those of the style-mimicry figure) as covariates; a feature
 * that never varies is left out (it cannot be estimated). Length, not log length: where reviewers' taste is linear in
 * characters, log length under-corrects (issue 31's study: a long-writing weakest member put back in the planted order
 * in 4 of 30 stores at 300 sessions with log length, 30 of 30 with length).
 */
function styleControlledLeaderboard(
  entries: readonly HistoryEntry[],
  bootstrap: number,
): StyleControlledRatings | StyleNotComputable {
  const sessions: StyledSession[] = entries.map((e) => ({
    id: e.session.sessionId,
    answers: Object.fromEntries(
      e.session.stage1
        .filter((r) => r.text !== null)
        .map((r) => [r.member, [[...r.text!].length / 1000, ...styleStatistics(r.text!)]]),
    ),
    ballots: e.session.stage2
      .filter((review) => review.evaluation && !review.evaluation.abstained)
      .map((review) => ({ reviewer: review.reviewer, ranking: review.evaluation!.ranking })),
  }));
  const all = sessions.flatMap((s) => Object.values(s.answers));
  const varying = STYLE_FEATURES.map((_, f) => f).filter((f) => all.some((x) => x[f] !== all[0]?.[f]));
  try {
    return styleControlledBradleyTerry(
      sessions.map((s) => ({
        ...s,
        answers: Object.fromEntries(Object.entries(s.answers).map(([c, x]) => [c, varying.map((f) => x[f]!)])),
      })),
      { featureNames: varying.map((f) => STYLE_FEATURES[f]!), bootstrap, seed: 0 },
    );
  } catch (error) {
    // The fit's own message names its options (prior, features), which a reader of the leaderboard cannot set: say
    // what it means in words, and keep the message in JSON's detail.
    if (ScoringError.isInstance(error))
      return {
        computable: false,
        reason:
          error.code === 'EMPTY_CANDIDATES'
            ? 'fewer than two members have answers in these sessions'
            : "the rankings cannot tell the members' quality from their answers' length and style (for example, each member's answers always as long as before, or the longer answer always winning)",
        detail: error.message,
      };
    throw error;
  }
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
  if (document.calibrated !== undefined)
    ctx.io.stdout(
      renderCalibratedLeaderboard({ view: document.calibrated, styleControlled: document.styleControlled }, s),
    );
  return 0;
}
