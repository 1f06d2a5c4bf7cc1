import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { appendJsonLines } from '@council/bias-store';
import { runCouncil } from '@council/core';
import type { CouncilMember } from '@council/core';
import type { LanguageModelV1 } from '@council/providers';
import { prepareBatchCouncil } from '../batch-council.js';
import { checkModels } from '../check-models.js';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { countNoun } from '../count-noun.js';
import { createLiveDisplay } from '../live-display.js';
import type { CouncilRunFlags } from '../parse-council-run-flags.js';
import { persistSession } from '../persist-session.js';
import { liveDisplayEnabled } from '../run-session-live.js';
import { sessionDocument } from '../session-document.js';
import { checkOutputFile, writeOutputFile } from '../write-output-file.js';
import { renderEvalReportHtml } from '../eval/render-eval-report-html.js';
import { loadHistory } from './history-command.js';
import { takeSessions } from '../eval/take-sessions.js';
import { computeEvalReport } from '../eval/compute-eval-report.js';
import type { EvalReport } from '../eval/compute-eval-report.js';
import { demoGrade, withDemoKnowledge } from '../eval/eval-demo-models.js';
import { hasJudging, runsCouncil } from '../eval/eval-item.js';
import type { EvalItem } from '../eval/eval-item.js';
import { readEvalJournal } from '../eval/eval-journal.js';
import { saveEvalReport } from '../eval/eval-report-store.js';
import type { EvalGrade, EvalJournalLine } from '../eval/eval-journal.js';
import { EvalCallPrices } from '../eval/eval-call-prices.js';
import { COST_CAP_SKIPPED, EvalItemBudget } from '../eval/eval-item-budget.js';
import { gradeAnswer } from '../eval/grade-answer.js';
import { judgeItem, oneLine } from '../eval/judge-item.js';
import { readEvalDataset } from '../eval/read-eval-dataset.js';
import { renderEvalReportText } from '../eval/render-eval-report-text.js';
import { DEMO_BIASES, DEMO_MEMBERS } from './demo-command.js';

/** `eval`'s options: the shared council flags (each optional), and its own. */
export interface EvalCommandOptions extends Partial<CouncilRunFlags> {
  file: string;
  endpointConcurrency?: number;
  /**
   * `--max-cost`: each item's cost cap in US dollars — its session (stopped before a stage, as `ask`), then the
   * grader's and the judges' calls, each checked before it is made; default config.yaml's `max_cost_usd`.
   */
  maxCostUsd?: number;
  /** Items in flight at once. Default 2. */
  concurrency?: number;
  /** The run's journal (JSONL, one line per item); default `<dataset>.eval.jsonl` (with `--demo`, in the demo's home). */
  output?: string;
  /** Continue a run: skip the items the journal has done. */
  resume?: boolean;
  /** The model that grades answers of items with only a reference answer; default the chairman. */
  grader?: string;
  /** Run on the demo's simulated members, offline, in a temporary home (or `--home`). */
  demo?: boolean;
  /** Bootstrap replicates of the report's intervals. Default 2000. */
  bootstrap?: number;
  /** Take these sessions from the history instead of running a council for the items they answer. */
  sessions?: string[];
  /** Also write the report as a self-contained HTML page to this file. */
  html?: string;
  /** Show each human-preference pair both ways round (two reviews per reviewer). */
  bothOrders?: boolean;
}

const memberId = (member: CouncilMember): string =>
  typeof member === 'string' ? member : 'id' in member ? member.id : member.modelId;
const memberModel = (member: CouncilMember): string | LanguageModelV1 =>
  typeof member === 'string' ? member : 'model' in member ? member.model : member;

/**
 * `council eval DATASET`: a council per item of a golden dataset (resumable from its journal, concurrency-limited,
 * cost-capped per session, a progress bar on a terminal), each reviewer's judgement of the dataset's own answers
 * where it has human preferences or scores, and the report: accuracy, agreement with people and measured bias side by
 * side, with 95% intervals over items. Exit 1 when an item failed (run again with --resume), else 0.
 */
export async function runEvalCommand(options: EvalCommandOptions, ctx: CommandContext): Promise<number> {
  const file = resolve(ctx.cwd, options.file);
  const items = readEvalDataset(file);
  const demo = options.demo === true;
  // --demo: the demo's simulated members in a home of their own (bias records on, consent 1, no organization, never
  // the user's bias store), as `council demo` and `serve --demo` do.
  const home = demo ? (ctx.home ?? mkdtempSync(join(tmpdir(), 'council-eval-demo-'))) : undefined;
  const given = demo
    ? commandSettings(ctx, { home: home!, biasPersistence: true, consentLevel: 1, org: null, biasStore: null })
    : commandSettings(ctx);
  const defaultOutput = demo ? join(given.home, `${basename(options.file)}.eval.jsonl`) : `${options.file}.eval.jsonl`;
  const output = checkOutputFile({
    path: resolve(ctx.cwd, options.output ?? defaultOutput),
    flag: options.output === undefined ? 'The eval journal' : '--output',
    orElse:
      options.output === undefined
        ? 'name another journal with --output'
        : 'leave --output out to write <dataset>.eval.jsonl',
    settings: given,
  });
  // Checked before any item runs: the page may replace an earlier page, never a directory, FIFO or device.
  const htmlOutput =
    options.html === undefined
      ? null
      : {
          path: resolve(ctx.cwd, options.html),
          flag: '--html',
          orElse: 'name another file with --html',
          settings: given,
        };
  if (htmlOutput !== null) checkOutputFile(htmlOutput);
  if (existsSync(output) && statSync(output).size > 0 && !options.resume)
    throw new CliError({
      code: 'USAGE',
      message: `${output} already holds an eval run: pass --resume to continue it (or just report it), or --output to start another.`,
    });
  const done = options.resume ? readEvalJournal(output) : new Map<string, EvalJournalLine>();
  // --sessions: the sessions answer their items, and no council runs; items no given session answers are left out.
  const taken =
    options.sessions === undefined
      ? null
      : takeSessions({ ids: options.sessions, items, entries: (await loadHistory(ctx, given)).entries });
  const todo = items.filter((i) => !done.has(i.id) && (taken === null || !runsCouncil(i) || taken.has(i.id)));
  const seed = options.seed ?? 1;
  // With --sessions and no --models, the judges and grader are the first taken session's own council.
  const first = taken === null ? undefined : [...taken.values()][0];
  const flags = demo
    ? {
        ...options,
        models: options.models ?? [...DEMO_MEMBERS],
        chairman: options.chairman ?? DEMO_MEMBERS[0],
        order: options.order ?? ('per-reviewer' as const),
        seed,
      }
    : first !== undefined && options.models === undefined
      ? { ...options, models: first.config.members, chairman: options.chairman ?? first.config.chairman }
      : options;
  const council = await prepareBatchCouncil({
    flags,
    given,
    ...(demo ? { simulated: { ...DEMO_BIASES, seed, latencyScale: 0 } } : {}),
  });
  const { settings, config } = council;
  const reviewers = council.seats.members.map((m) => ({ id: memberId(m), model: memberModel(m) }));
  const chairman = memberModel(council.seats.chairman);
  // The grader of reference-only items: --grader, else the chairman's model; --demo's is the simulated grader.
  const graderId = demo
    ? 'simulated'
    : (options.grader ?? (typeof chairman === 'string' ? chairman : chairman.modelId));
  if (!demo && options.grader !== undefined)
    checkModels({ ids: [options.grader], env: given.secrets.providerEnv, resolveModel: council.resolveModel });
  const grader = demo ? null : council.resolveModel(graderId);
  const concurrency = options.concurrency ?? 2;
  // The cap covers every call an item makes; the prices of the run's calls estimate the next one (as core's stages).
  const maxCostUsd = options.maxCostUsd ?? config.maxCostUsd ?? null;
  const prices = new EvalCallPrices();
  // On --resume, the done items' sessions price the models before any new call reports a cost.
  for (const line of done.values()) if (line.session !== null) prices.seeSession(line.session);
  let unestimated = false;
  let capped = 0;
  const capMessages: string[] = [];

  if (taken !== null) {
    const left = items.filter((i) => runsCouncil(i) && !taken.has(i.id) && !done.has(i.id)).length;
    ctx.io.stderr(
      `--sessions: ${countNoun(taken.size, 'session')} answer their items; ${countNoun(left, 'item')} with key content or a reference answer no given session answers ${left === 1 ? 'is' : 'are'} left out.\n`,
    );
  }
  ctx.io.stderr(
    `Eval: ${countNoun(items.length, 'item')}, ${done.size} already done, ${todo.length} to run, ${concurrency} at a time → ${output}${demo ? `\n(--demo: simulated members ${DEMO_MEMBERS.join(', ')}, offline, saved under ${given.home})` : ''}\n`,
  );
  const started = Date.now();
  let finished = 0;
  let failed = 0;
  let running = 0;
  const display = createLiveDisplay({
    write: ctx.io.stderr,
    enabled: liveDisplayEnabled(ctx),
    render: () => {
      const width = 30;
      const filled = todo.length === 0 ? width : Math.round((finished / todo.length) * width);
      return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${finished}/${todo.length} items${failed ? `, ${failed} failed` : ''}, ${running} running · ${((Date.now() - started) / 1000).toFixed(0)}s\n`;
    },
  });

  const runNewSession = async (item: EvalItem, resolveModel: (id: string) => LanguageModelV1) => {
    const ran = await runCouncil(council.sessionOptions({ query: item.question, key: item.id, resolveModel }));
    if (options.persist !== false)
      await persistSession({
        session: ran,
        settings,
        version: ctx.version,
        keepQuestion: config.historyQuestions && options.keepQuestion !== false,
      });
    return sessionDocument(ran);
  };

  const runItem = async (item: EvalItem): Promise<EvalJournalLine> => {
    const resolveModel = demo
      ? withDemoKnowledge({ resolveModel: council.resolveModel, item, seed })
      : council.resolveModel;
    let session: EvalJournalLine['session'] = null;
    const grades: EvalGrade[] = [];
    const budget = new EvalItemBudget({ maxCostUsd, prices });
    const costs = { budget, prices };
    if (runsCouncil(item)) {
      const fresh = taken?.has(item.id) !== true;
      const ran = taken?.get(item.id) ?? (await runNewSession(item, resolveModel));
      session = ran;
      prices.seeSession(ran);
      // A session taken from the history was paid for before this run: only the calls made for the item count.
      if (fresh) budget.spend(ran.usage.costUsd);
      if (item.accept === undefined && item.reference !== undefined) {
        const reference = item.reference;
        const targets = [
          ...ran.stage1.flatMap((s) => (s.text === null ? [] : [{ target: s.member, text: s.text }])),
          ...(ran.synthesis ? [{ target: 'council', text: ran.synthesis.text }] : []),
        ];
        for (const { target, text } of targets) {
          if (grader === null) {
            // The demo's grader is no model call: it costs nothing.
            grades.push({ target, correct: demoGrade(text, reference), grader: graderId, cost_usd: 0, error: null });
            continue;
          }
          try {
            const graded = await gradeAnswer({
              model: grader,
              question: item.question,
              reference,
              answer: text,
              seed: `${seed}:${item.id}:${target}:grade`,
              timeoutMs: config.timeouts.stage2Ms,
              costs: {
                ...costs,
                what: `the grader's call on ${target === 'council' ? 'the synthesis' : `${target}'s answer`} of ${item.id}`,
              },
            });
            grades.push(
              graded === null
                ? { target, correct: null, grader: graderId, cost_usd: 0, error: COST_CAP_SKIPPED }
                : { target, correct: graded.correct, grader: graderId, cost_usd: graded.costUsd, error: null },
            );
          } catch (error) {
            grades.push({ target, correct: null, grader: graderId, cost_usd: null, error: oneLine(error) });
          }
        }
      }
    }
    const judgements = hasJudging(item)
      ? await judgeItem({
          item,
          reviewers: reviewers.map((r) => ({
            id: r.id,
            model: typeof r.model === 'string' ? resolveModel(r.model) : r.model,
          })),
          config,
          seed,
          bothOrders: options.bothOrders === true,
          costs,
        })
      : [];
    if (budget.unestimated) unestimated = true;
    const cost_cap = budget.line();
    return {
      item_id: item.id,
      session,
      grades,
      judgements,
      ...(cost_cap === undefined ? {} : { cost_cap }),
      error: null,
    };
  };

  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const item = todo[next++]!;
      running++;
      const t0 = Date.now();
      let line: EvalJournalLine;
      try {
        line = await runItem(item);
      } catch (error) {
        failed++;
        line = { item_id: item.id, session: null, grades: [], judgements: [], error: oneLine(error) };
      }
      // One whole line per item, appended when the item is done: a crash loses only the items in flight.
      appendJsonLines(output, [line]);
      running--;
      finished++;
      const stopped = line.cost_cap?.message ?? null;
      if (stopped !== null) capped++;
      if (display.active) {
        display.refresh();
        // Said once the bar is gone, not under it.
        if (stopped !== null) capMessages.push(`${item.id}: ${stopped}\n`);
      } else
        ctx.io.stderr(
          `[${finished}/${todo.length}] ${item.id} ${line.error ? `failed: ${line.error}` : 'done'} (${((Date.now() - t0) / 1000).toFixed(1)}s)\n${stopped === null ? '' : `  ${stopped}\n`}`,
        );
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, todo.length)) }, worker));
  } finally {
    display.stop();
  }
  for (const m of capMessages) ctx.io.stderr(m);

  const report: EvalReport = computeEvalReport({
    items,
    journal: readEvalJournal(output),
    config: { grader: graderId, demo, bootstrap: options.bootstrap ?? 2000, seed },
    journalPath: output,
    now: ctx.now(),
  });
  // Kept in the home for `council serve`'s dashboard (GET /api/evals), unless nothing of the run is to be kept.
  if (options.persist !== false) {
    try {
      const saved = saveEvalReport({ home: given.home, report });
      ctx.io.stderr(`Report saved for the dashboard (council serve): ${saved.path}\n`);
    } catch (error) {
      ctx.io.stderr(`council: the report could not be saved for the dashboard: ${oneLine(error)}\n`);
    }
  }
  if (htmlOutput !== null) {
    writeOutputFile({ ...htmlOutput, data: renderEvalReportHtml(report) });
    ctx.io.stderr(`HTML report: ${htmlOutput.path}\n`);
  }
  if (options.json) ctx.io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else ctx.io.stdout(renderEvalReportText(report, ctx.out));
  if (capped > 0)
    ctx.io.stderr(
      `council: the cost cap of $${maxCostUsd} stopped ${countNoun(capped, 'item')} before all ${capped === 1 ? 'its' : 'their'} calls were made; ${capped === 1 ? 'it counts' : 'they count'} with what was made (a call not made is neither right nor wrong). --resume does not run ${capped === 1 ? 'it' : 'them'} again.\n`,
    );
  if (unestimated && maxCostUsd !== null)
    ctx.io.stderr(
      'council: the cost cap could not be applied to every grading and judging call: some were made before any provider had reported a cost, so their cost could not be estimated.\n',
    );
  if (failed > 0)
    ctx.io.stderr(`council: ${failed} item${failed === 1 ? '' : 's'} failed; run again with --resume to retry them.\n`);
  return failed > 0 ? 1 : 0;
}
