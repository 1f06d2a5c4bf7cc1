import { evidenceTier } from '../bias-findings.js';
import { councilPaths, readHistory, unsavedSessionIds } from '@council/bias-store';
import { scrubSessionMessages } from '@council/core';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import type { HistoryEntry, HistorySession } from '../history-entry.js';
import type { CouncilSettings } from '../settings/council-settings.js';
import { commandSettings } from '../command-context.js';
import { countNoun } from '../count-noun.js';
import { describeUnsaved } from '../describe-unsaved.js';
import { renderSessionText } from '../render-session-text.js';
import { renderJuryText } from '../render-verdict-text.js';
import { renderTable, terminalFit } from '../render-table.js';
import type { TableAlign } from '../render-table.js';
import { sessionDocument } from '../session-document.js';
import type { SessionShow } from '../session-show.js';
import { conversationOf, groupConversations, questionMatches, sessionTitle } from './history-conversations.js';

export interface HistoryCommandOptions {
  action: string | undefined;
  /** `show`: the session (id, prefix or `last`); `search`: the text to find in the questions. */
  id?: string;
  /** `list`: the most recent n sessions (default 20). */
  limit?: number;
  json?: boolean;
  /** `show --show`: the stored answers and/or reviews beside the synthesis; default the answers. */
  show?: SessionShow;
}

/**
 * Loads the history log, warning on stderr about lines it had to skip. Sessions not saved whole yet (being saved now, or
 * a save that failed: the home's journal names them) are left out, as every reader leaves them out, and said so.
 */
export async function loadHistory(
  ctx: CommandContext,
  settings: CouncilSettings = commandSettings(ctx),
): Promise<{ path: string; entries: HistoryEntry[] }> {
  const path = settings.files.history;
  const [read, unsaved] = await Promise.all([
    readHistory<HistorySession>(path),
    unsavedSessionIds(councilPaths(settings.home).journal),
  ]);
  if (read.skipped > 0)
    ctx.io.stderr(
      `council: skipped ${read.skipped} unreadable line${read.skipped === 1 ? '' : 's'} in ${path} (first at line ${read.firstBadLine}).\n`,
    );
  const entries = read.entries.filter((e) => !unsaved.has(e.session.sessionId));
  if (unsaved.size > 0) ctx.io.stderr(`council: ${describeUnsaved(unsaved.size)}\n`);
  return { path, entries: entries.map(withSessionWarnings) };
}

/**
 * A line written before sessions carried `warnings` (before 2026-11-24) has none: that is no warning, an empty list.
 * Its messages are scrubbed of URL credentials and query keys: a line saved before they were (issue 27) shows none
 * in `history show`, `council serve` or `council mcp` either.
 */
function withSessionWarnings(entry: HistoryEntry): HistoryEntry {
  const warnings = (entry.session as Partial<HistorySession>).warnings;
  const session = scrubSessionMessages(entry.session);
  return { ...entry, session: warnings === undefined ? { ...session, warnings: [] } : session };
}

/**
 * Finds one session by its id, a unique prefix of it, or `last` (the newest session saved), the one name every front
 * end accepts for a session: `history show`, `ask --continue`, MCP's `get_session` and `continueFrom`.
 */
export function findSession(entries: readonly HistoryEntry[], id: string): HistoryEntry {
  if (id === 'last') {
    const last = entries[entries.length - 1];
    if (last !== undefined) return last;
    throw new CliError({
      code: 'USAGE',
      message: 'No session yet: the history is empty. Ask a question first ("council ask"), or run "council demo".',
    });
  }
  const exact = entries.find((e) => e.session.sessionId === id);
  if (exact) return exact;
  const matches = entries.filter((e) => e.session.sessionId.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new CliError({
      code: 'USAGE',
      message: `No session "${id}" in the history. Run "council history list" to see the ids.`,
    });
  throw new CliError({
    code: 'USAGE',
    message: `"${id}" matches ${matches.length} sessions; give more characters of the id.`,
  });
}

/**
 * `council history list|search <text>|show <id>`: the sessions this machine ran, titled by their questions (kept in
 * the local history unless `history_questions: false`), follow-ups under the question that started the conversation.
 */
export async function runHistoryCommand(options: HistoryCommandOptions, ctx: CommandContext): Promise<number> {
  // `council history` alone lists, as `git stash` or `llm logs` do: the action a newcomer means.
  const action = options.action ?? 'list';
  if (
    action !== 'list' &&
    action !== 'search' &&
    action !== 'show' &&
    action !== 'consistency' &&
    action !== 'mimicry'
  ) {
    throw new CliError({
      code: 'USAGE',
      message: `Unknown history action "${action}": use "council history list", "council history search <text>", "council history show <id>", "council history consistency" or "council history mimicry".`,
    });
  }
  const { path, entries } = await loadHistory(ctx);
  if (action === 'consistency') return showSelfConsistency({ path, entries, json: options.json === true }, ctx);
  if (action === 'mimicry') return showStyleMimicry({ path, entries, json: options.json === true }, ctx);
  if (action === 'show') {
    if (options.id === undefined || options.id.trim() === '')
      throw new CliError({
        code: 'USAGE',
        message: 'council history show needs a session id (or last): run "council history list" to see them.',
      });
    const entry = findSession(entries, options.id.trim());
    if (options.json) {
      ctx.io.stdout(
        `${JSON.stringify({ ...sessionDocument(entry.session), question: entry.question ?? null, queryMetadata: entry.query_metadata, simulated: entry.simulated }, null, 2)}\n`,
      );
      return 0;
    }
    const s = ctx.out;
    const md = entry.query_metadata;
    ctx.io.stdout(
      `${s.bold(`Session ${entry.session.sessionId}`)} · ${entry.session.timestamp}${entry.simulated ? ` ${s.magenta('[simulated]')}` : ''}\n`,
    );
    const conversation = entry.session.conversation;
    if (conversation !== undefined)
      ctx.io.stdout(
        s.dim(`Follow-up of ${conversation.previousSessionId} (conversation ${conversation.id.slice(0, 8)})\n`),
      );
    // `und` is BCP 47's "undetermined": the heuristic found no language it knows (query-language.ts).
    const language = md?.language === undefined ? 'n/a' : md.language === 'und' ? 'not detected' : md.language;
    const about = `category ${md?.category ?? 'n/a'}, ${md?.token_count_bucket ?? '?'} tokens, language ${language}`;
    if (entry.question === undefined)
      ctx.io.stdout(
        s.dim(
          `Question: not stored (history_questions: false or --no-keep-question, or saved before questions were kept); ${about}\n`,
        ),
      );
    else ctx.io.stdout(`${s.bold('Question:')} ${entry.question}\n${s.dim(about)}\n`);
    ctx.io.stdout(
      renderTable({
        head: ['member', 'model', 'answer', 'latency'],
        align: ['left', 'left', 'left', 'right'],
        style: s,
        rows: entry.session.stage1.map((r) => [
          r.member,
          r.model,
          r.text === null ? `failed: ${r.error?.reason ?? 'error'}` : `${[...r.text].length} characters`,
          `${(r.latencyMs / 1000).toFixed(1)}s`,
        ]),
      }),
    );
    // The answers as the history kept them (a text cut to fit the history's line limit says so where it was cut).
    ctx.io.stdout(
      renderSessionText({
        session: entry.session,
        style: s,
        simulated: entry.simulated,
        show: options.show ?? { answers: true, reviews: false },
      }) + renderJuryText(entry.session, s),
    );
    return 0;
  }
  let listed = entries;
  if (action === 'search') {
    const text = options.id?.trim() ?? '';
    if (text === '')
      throw new CliError({
        code: 'USAGE',
        message:
          'council history search needs the text to find in the questions: council history search "legacy module".',
      });
    listed = entries.filter((e) => questionMatches(e, text));
  }
  const limit = options.limit ?? 20;
  const recent = listed.slice(-limit).reverse();
  if (options.json) {
    ctx.io.stdout(
      `${JSON.stringify(
        recent.map((e) => ({
          sessionId: e.session.sessionId,
          timestamp: e.session.timestamp,
          title: sessionTitle(e),
          conversation: conversationOf(e),
          previousSessionId: e.session.conversation?.previousSessionId ?? null,
          members: e.session.config.members,
          winner: e.session.leaderboard[0]?.candidate ?? null,
          category: e.query_metadata?.category ?? null,
          simulated: e.simulated,
          tokens: e.session.usage.tokens,
          costUsd: e.session.usage.costUsd,
        })),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (entries.length === 0) {
    ctx.io.stdout(`No sessions yet in ${path}. Run "council ask" (or "council demo").\n`);
    return 0;
  }
  if (action === 'search' && listed.length === 0) {
    const unkept = entries.filter((e) => e.question === undefined).length;
    ctx.io.stdout(
      `No question in the history contains "${options.id!.trim()}"${unkept > 0 ? ` (${unkept} of ${entries.length} sessions kept no question)` : ''}.\n`,
    );
    return 0;
  }
  // Each conversation once, where its newest session falls; its sessions in the order they were asked, follow-ups
  // marked ↳ under the question that started it.
  const rows = groupConversations(recent).flatMap((group) =>
    group.sessions.map((e) => {
      const followUp = e.session.conversation !== undefined;
      const title = sessionTitle(e) ?? ctx.out.dim('(question not stored)');
      return [
        e.session.sessionId.slice(0, 8) + (e.simulated ? ' (sim)' : ''),
        e.session.timestamp.slice(0, 16).replace('T', ' '),
        followUp ? `↳ ${title}` : title,
        String(e.session.config.members.length),
        e.session.leaderboard[0]?.candidate ?? 'n/a',
        e.session.usage.tokens.toLocaleString('en-US'),
      ];
    }),
  );
  ctx.io.stdout(
    renderTable({
      head: ['session', 'time (UTC)', 'question', 'members', 'leader', 'tokens'],
      align: ['left', 'left', 'left', 'right', 'left', 'right'],
      style: ctx.out,
      rows,
      // On a terminal narrower than the table the questions wrap, rather than every row breaking the box.
      ...terminalFit(ctx, 2),
    }),
  );
  const found = action === 'search' ? ` whose question contains "${options.id!.trim()}" (of ${entries.length})` : '';
  ctx.io.stdout(
    `${recent.length} of ${countNoun(listed.length, 'session')}${found}. Show one with: council history show <session>\n`,
  );
  return 0;
}

type MeasureOptions = { path: string; entries: readonly HistoryEntry[]; json: boolean };

/**
 * How `council history` shows an ADR-015 measure: with --json the whole result (`{ history, sessions, reviewers }`);
 * otherwise its title, then the table of the reviewers it measured (`table` gives undefined while there are none,
 * and `none` says why), then `note`, what the figures mean.
 */
function writeMeasure(
  options: MeasureOptions,
  measure: {
    reviewers: readonly unknown[];
    title: string;
    headline: string;
    table: () => { head: string[]; align: TableAlign[]; rows: string[][] } | undefined;
    none: string;
    note: string;
  },
  ctx: CommandContext,
): number {
  if (options.json) {
    const { path, entries } = options;
    ctx.io.stdout(
      `${JSON.stringify({ history: path, sessions: entries.length, reviewers: measure.reviewers }, null, 2)}\n`,
    );
    return 0;
  }
  ctx.io.stdout(`${ctx.out.bold(measure.title)}: ${measure.headline}\n`);
  const table = measure.table();
  if (table === undefined) {
    ctx.io.stdout(`${measure.none}\n`);
    return 0;
  }
  ctx.io.stdout(renderTable({ ...table, style: ctx.out }));
  ctx.io.stdout(ctx.out.dim(`${measure.note}\n`));
  return 0;
}

/** `council history consistency`: ADR-015's self-consistency, each reviewer's score SD over identical answers. */
async function showSelfConsistency(options: MeasureOptions, ctx: CommandContext): Promise<number> {
  const { measureSelfConsistency } = await import('../self-consistency.js');
  const reviewers = measureSelfConsistency(options.entries);
  const s = ctx.out;
  const sd = (r: (typeof reviewers)[number]) =>
    r.tier === 'insufficient_data'
      ? s.dim(`collecting data (${r.sessions} of 10 sessions)`)
      : `${r.scoreSd!.toFixed(2)} [${r.interval![0].toFixed(2)}, ${r.interval![1].toFixed(2)}]`;
  return writeMeasure(
    options,
    {
      reviewers,
      title: 'Self-consistency',
      headline: `each reviewer's scores for identical answers, over ${options.entries.length} sessions in ${options.path}`,
      table: () => {
        const measured = reviewers.filter((r) => r.df > 0);
        if (measured.length === 0) return undefined;
        return {
          head: ['reviewer', 'repeated answers', 'reviews', 'sessions', 'score SD [95%]', 'evidence'],
          align: ['left', 'right', 'right', 'right', 'right', 'left'],
          rows: measured.map((r) => [
            r.reviewer,
            String(r.repeatedAnswers),
            String(r.reviews),
            String(r.sessions),
            sd(r),
            evidenceTier(r.tier),
          ]),
        };
      },
      none: 'No reviewer has scored the same answer twice yet. This needs identical answers reviewed again: a batch that repeats a query with models that repeat themselves (temperature 0), or a re-run with the same --seed.',
      note: "The SD of one reviewer's scores around each answer's mean (0: the same score every time), pooled over the answers it scored more than once.",
    },
    ctx,
  );
}

/** `council history mimicry`: ADR-015's style mimicry, each reviewer's score against other answers' closeness to its own style. */
async function showStyleMimicry(options: MeasureOptions, ctx: CommandContext): Promise<number> {
  const { measureStyleMimicry } = await import('../style-mimicry.js');
  const reviewers = measureStyleMimicry(options.entries);
  const s = ctx.out;
  // With enough sessions the only way to have no estimate is no spread to regress on: within every session, the
  // answers the reviewer scored were all equally close to its style (identical answers, say).
  const effect = (r: (typeof reviewers)[number]) =>
    r.tier === 'insufficient_data'
      ? s.dim(`collecting data (${r.sessions} of 10 sessions)`)
      : r.pointsPerSimilaritySd === null
        ? s.dim('n/a: every answer it scored was equally close to its style')
        : `${r.pointsPerSimilaritySd >= 0 ? '+' : ''}${r.pointsPerSimilaritySd.toFixed(2)} [${r.interval![0].toFixed(2)}, ${r.interval![1].toFixed(2)}]`;
  return writeMeasure(
    options,
    {
      reviewers,
      title: 'Style mimicry',
      headline: `do reviewers score answers written like their own higher? Over ${options.entries.length} sessions in ${options.path}`,
      table: () =>
        reviewers.length === 0
          ? undefined
          : {
              head: ['reviewer', 'sessions', 'reviews', 'score change per SD closer in style [95%]', 'evidence'],
              align: ['left', 'right', 'right', 'right', 'left'],
              rows: reviewers.map((r) => [
                r.reviewer,
                String(r.sessions),
                String(r.reviews),
                effect(r),
                evidenceTier(r.tier),
              ]),
            },
      none: 'No reviewer has both answered and scored two other answers in a session yet.',
      note: "Score change: points on the reviewer's own score scale when another answer is one standard deviation closer to the reviewer's style than the other answers in that session (an SD of the closeness it met: at most the spread of its scores). Style: words per sentence, list and heading lines, code, emphasis (not length: that is the length bias); its own answer left out (that is self-preference). An association, not proof: an answer written like the reviewer's may also be better.",
    },
    ctx,
  );
}
