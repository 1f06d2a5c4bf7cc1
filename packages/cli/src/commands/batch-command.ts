import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { appendJsonLines } from '@council/bias-store';
import { runCouncil, sessionOutcome } from '@council/core';
import type { CouncilSession, JuryDecision, SessionShortfall } from '@council/core';
import { aggregateLeaderboards } from '@council/scoring';
import type { AggregateLeaderboardEntry } from '@council/scoring';
import { CliError } from '../cli-error.js';
import { prepareBatchCouncil } from '../batch-council.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { describeShortfalls, PARTIAL_EXIT_CODE } from '../council-outcome.js';
import { createLiveDisplay } from '../live-display.js';
import { persistSession } from '../persist-session.js';
import { checkOutputFile } from '../write-output-file.js';
import { readPromptsFile } from '../read-prompts-file.js';
import { renderTable } from '../render-table.js';
import { liveDisplayEnabled } from '../run-session-live.js';
import { sessionDocument } from '../session-document.js';
import type { CouncilRunFlags } from '../parse-council-run-flags.js';
import { readEvidenceFlags } from '../evidence/read-evidence.js';
import { omitUndefined } from '../omit-undefined.js';
import { reviewerFlagsFromStore } from '../reviewer-flags-from-store.js';
import type { VerdictFlags } from '../verdict-flags.js';
import { simulatedJuror } from './gate-demo-jurors.js';

/** `batch`'s options: the shared council flags (each optional), and its own. */
export interface BatchCommandOptions extends Partial<CouncilRunFlags>, VerdictFlags {
  file: string;
  /** `--endpoint-concurrency`: calls sent at once to each endpoint; default config.yaml's `providers.<name>.max_concurrency`, else the provider's. */
  endpointConcurrency?: number;
  /** `--max-cost`: each session's cost cap in US dollars; default config.yaml's `max_cost_usd`. */
  maxCostUsd?: number;
  /** Sessions in flight at once. Default 2. */
  concurrency?: number;
  /** Results file (JSONL, one line per prompt); default `<file>.results.jsonl`. */
  output?: string;
  /** Skip prompts already completed in the results file. */
  resume?: boolean;
}

/** One line of the results file. */
export interface BatchResultLine {
  prompt_id: string;
  line: number;
  /** The session (without the query text), or null when it failed. */
  session: ReturnType<typeof sessionDocument> | null;
  error: string | null;
}

/** A session of this run that finished partially (see `councilOutcome`), by its prompt. */
export interface BatchPartialSession {
  prompt_id: string;
  sessionId: string;
  shortfalls: SessionShortfall[];
}

/** The summary `batch` prints (`--json`: this document). Counts are of the sessions this run ran; `--resume` skips those with a result. */
export interface BatchSummary {
  prompts: number;
  ran: number;
  /** Sessions that produced what was asked. */
  complete: number;
  /** Sessions that finished partially, with what each fell short of. */
  partial: BatchPartialSession[];
  /** Partial sessions whose reviews came back but none could be read: they added no bias records. */
  unreadReviews: BatchPartialSession[];
  failed: number;
  skipped: number;
  output: string;
  /** In jury mode (`--verdict`, or config.yaml's `verdict`): this run's sessions by their verdict; null otherwise. */
  verdicts: Record<JuryDecision, number> | null;
  leaderboard: AggregateLeaderboardEntry[];
}

function completedIds(path: string): Set<string> {
  const done = new Set<string>();
  if (!existsSync(path)) return done;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const line = JSON.parse(text) as Partial<BatchResultLine>;
      if (typeof line.prompt_id === 'string' && line.session) done.add(line.prompt_id);
    } catch {
      // A torn last line (a crash while writing) is simply not completed: that prompt runs again.
    }
  }
  return done;
}

/**
 * `council batch <prompts>`: many sessions with bounded concurrency and a progress bar; each result is
 * appended to the results file as it finishes, so `--resume` after a crash or Ctrl-C redoes only what is
 * missing. Ends with the cross-query leaderboard of the batch. Exit 1 when a session failed; else 3
 * (`PARTIAL_EXIT_CODE`) when a session of this run finished partially; else 0.
 */
export async function runBatchCommand(options: BatchCommandOptions, ctx: CommandContext): Promise<number> {
  const file = resolve(ctx.cwd, options.file);
  const prompts = readPromptsFile(file);
  const given = commandSettings(ctx);
  // Appended to as results come: a regular file (a link is followed), never one of Council's files in the home.
  const output = checkOutputFile({
    path: resolve(ctx.cwd, options.output ?? `${options.file}.results.jsonl`),
    flag: options.output === undefined ? 'The results file' : '--output',
    orElse:
      options.output === undefined
        ? 'name another results file with --output'
        : 'leave --output out to write <file>.results.jsonl',
    settings: given,
  });
  if (existsSync(output) && statSync(output).size > 0 && !options.resume) {
    throw new CliError({
      code: 'USAGE',
      message: `${output} already holds results: pass --resume to continue it, or --output to write elsewhere.`,
    });
  }
  const done = options.resume ? completedIds(output) : new Set<string>();
  const todo = prompts.filter((p) => !done.has(p.id));
  const council = await prepareBatchCouncil({ flags: options, given });
  const { settings, config } = council;
  const concurrency = options.concurrency ?? 2;
  // Jury mode as ask has it: the evidence read and scanned once, before any model is called (a secret stops the
  // batch here), and given to every session; simulated members decide; a flagged reviewer is named beside its vote.
  const verdict = options.verdict ?? config.verdict;
  const evidence = await readEvidenceFlags({
    sources: options.evidence,
    redact: options.redactSecrets === true,
    cwd: ctx.cwd,
    io: ctx.io,
  });
  const known = verdict === undefined ? { flags: {}, note: null } : await reviewerFlagsFromStore(ctx, settings);
  if (known.note !== null) ctx.io.stderr(`note: ${known.note}\n`);
  const jury =
    verdict === undefined
      ? {}
      : {
          verdict,
          resolveModel: (id: string) => simulatedJuror(council.resolveModel(id)),
          reviewerFlags: known.flags,
          ...omitUndefined({ verdictMinMargin: options.minMargin, maxEvidenceChars: options.evidenceMaxChars }),
          ...(evidence.items.length > 0 ? { evidence: evidence.items } : {}),
        };

  ctx.io.stderr(
    `Batch: ${prompts.length} prompts, ${done.size} already done, ${todo.length} to run, ${concurrency} at a time → ${output}\n`,
  );
  const started = Date.now();
  let finished = 0;
  let failed = 0;
  let complete = 0;
  const partial: BatchPartialSession[] = [];
  let running = 0;
  const display = createLiveDisplay({
    write: ctx.io.stderr,
    enabled: liveDisplayEnabled(ctx),
    render: () => {
      const width = 30;
      const filled = todo.length === 0 ? width : Math.round((finished / todo.length) * width);
      return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${finished}/${todo.length} done${partial.length ? `, ${partial.length} partial` : ''}${failed ? `, ${failed} failed` : ''}, ${running} running · ${((Date.now() - started) / 1000).toFixed(0)}s\n`;
    },
  });
  const sessions: CouncilSession[] = [];
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const item = todo[next++]!;
      running++;
      const t0 = Date.now();
      let line: BatchResultLine;
      let status = 'complete';
      try {
        const session = await runCouncil({ ...council.sessionOptions({ query: item.prompt, key: item.id }), ...jury });
        sessions.push(session);
        if (options.persist !== false)
          await persistSession({
            session,
            settings,
            version: ctx.version,
            keepQuestion: config.historyQuestions && options.keepQuestion !== false,
          });
        line = { prompt_id: item.id, line: item.line, session: sessionDocument(session), error: null };
        const outcome = sessionOutcome(session);
        if (outcome.complete) {
          complete++;
        } else {
          partial.push({ prompt_id: item.id, sessionId: session.sessionId, shortfalls: outcome.shortfalls });
          status = `partial: ${describeShortfalls(outcome)}`;
        }
        if (session.verdict !== undefined) status += `, verdict ${session.verdict.decision}`;
      } catch (error) {
        failed++;
        const message = (error instanceof Error ? error.message : String(error))
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean)
          .join(' ');
        line = { prompt_id: item.id, line: item.line, session: null, error: message };
      }
      // Appended one whole line at a time, so an interrupted batch keeps everything that finished.
      appendJsonLines(output, [line]);
      running--;
      finished++;
      if (display.active) display.refresh();
      else
        ctx.io.stderr(
          `[${finished}/${todo.length}] ${item.id} ${line.error ? `failed: ${line.error}` : status} (${((Date.now() - t0) / 1000).toFixed(1)}s)\n`,
        );
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, todo.length)) }, worker));
  } finally {
    display.stop();
  }

  // The leaderboard covers every completed prompt of the results file, resumed runs included.
  const all = readResults(output);
  const leaderboard = aggregateLeaderboards(
    all
      .filter((r) => r.session !== null)
      .map((r) => ({ id: r.session!.sessionId, leaderboard: r.session!.leaderboard, timestamp: r.session!.timestamp })),
    { bootstrap: 1000, seed: 0 },
  );
  // In prompt order, whatever order the sessions finished in.
  const order = new Map(todo.map((p, i) => [p.id, i]));
  partial.sort((a, b) => order.get(a.prompt_id)! - order.get(b.prompt_id)!);
  const unreadReviews = partial.filter((p) => p.shortfalls.includes('no-review-read'));
  const summary: BatchSummary = {
    prompts: prompts.length,
    ran: todo.length,
    complete,
    partial,
    unreadReviews,
    failed,
    skipped: done.size,
    output,
    verdicts: verdict === undefined ? null : countVerdicts(sessions),
    leaderboard,
  };
  if (options.json) ctx.io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else
    ctx.io.stdout(
      renderBatchSummary(summary, ctx, { biasRecords: options.persist !== false && settings.writesBiasRecords }),
    );
  return failed > 0 ? 1 : partial.length > 0 ? PARTIAL_EXIT_CODE : 0;
}

/** This run's sessions by their verdict (a session without one, e.g. a jury that lost every member, is not counted). */
function countVerdicts(sessions: readonly CouncilSession[]): Record<JuryDecision, number> {
  const counts: Record<JuryDecision, number> = { approve: 0, reject: 0, unclear: 0 };
  for (const session of sessions) if (session.verdict !== undefined) counts[session.verdict.decision]++;
  return counts;
}

function readResults(path: string): BatchResultLine[] {
  const out: BatchResultLine[] = [];
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      out.push(JSON.parse(text) as BatchResultLine);
    } catch {
      // torn line: not a result
    }
  }
  return out;
}

const sessionCount = (n: number): string => `${n} session${n === 1 ? '' : 's'}`;

function renderBatchSummary(summary: BatchSummary, ctx: CommandContext, options: { biasRecords: boolean }): string {
  const s = ctx.out;
  const { partial, unreadReviews } = summary;
  const lines = [
    `${s.bold('Batch finished')}: ${sessionCount(summary.complete)} complete${partial.length ? `, ${s.yellow(`${partial.length} partial`)}` : ''}${summary.failed ? `, ${s.red(`${summary.failed} failed`)} (run again with --resume to retry them)` : ''}${summary.skipped ? `, ${summary.skipped} skipped as already done` : ''}. Results: ${summary.output}`,
  ];
  if (summary.verdicts !== null) {
    const v = summary.verdicts;
    lines.push(
      `Verdicts: ${s.green(`${v.approve} approve`)}, ${s.red(`${v.reject} reject`)}, ${s.yellow(`${v.unclear} unclear`)}${summary.ran > 0 ? ` (of ${sessionCount(summary.ran)} run)` : ''}.`,
    );
  }
  if (partial.length > 0)
    lines.push(`Partial: ${partial.map((p) => `${p.prompt_id} (${describeShortfalls(p)})`).join(', ')}.`);
  if (unreadReviews.length > 0) {
    const named = unreadReviews.map((p) => `${p.prompt_id} (session ${p.sessionId})`).join(', ');
    lines.push(
      `No review could be read in ${sessionCount(unreadReviews.length)}${options.biasRecords ? ', which added no bias records' : ''}: ${named}.`,
    );
  }
  if (summary.leaderboard.length === 0) {
    const completed = summary.ran - summary.failed + summary.skipped;
    lines.push(
      completed > 0
        ? 'No leaderboard: no completed session was ranked (with self-votes excluded, a ranking needs at least three answers).'
        : 'No session has completed, so there is no leaderboard yet.',
    );
    return lines.join('\n') + '\n';
  }
  lines.push(
    s.bold('Cross-query leaderboard (mean of per-session Borda scores, 95% bootstrap interval)'),
    renderTable({
      head: ['rank', 'member', 'mean Borda', '95% interval', 'sessions', 'wins'],
      align: ['right', 'left', 'right', 'right', 'right', 'right'],
      style: s,
      rows: summary.leaderboard.map((b) => [
        String(b.rank),
        b.candidate,
        b.aggregateBorda.toFixed(3),
        b.interval ? `[${b.interval.lower.toFixed(3)}, ${b.interval.upper.toFixed(3)}]` : 'n/a',
        String(b.appearances),
        String(b.totalWins),
      ]),
    }).trimEnd(),
  );
  return lines.join('\n') + '\n';
}
