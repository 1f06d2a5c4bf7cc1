import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CouncilSession } from '@council/core';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { createModelResolver } from '../create-model-resolver.js';
import { createLiveDisplay } from '../live-display.js';
import { htmlReportFromAudit } from '../html/html-report-from-audit.js';
import { renderHtmlReport } from '../html/render-html-report.js';
import { persistSession } from '../persist-session.js';
import {
  DEMO_BIASES,
  DEMO_MEMBERS,
  DEMO_SESSIONS,
  demoCouncilBase,
  demoSession,
  runDemoSessions,
} from './demo-sessions.js';
import type { DemoPlan } from './demo-sessions.js';
import { checkOutputFile, writeOutputFile } from '../write-output-file.js';
import { renderBiasReportText } from '../render-bias-report-text.js';
import { renderSessionText } from '../render-session-text.js';
import { sessionDocument } from '../session-document.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { liveDisplayEnabled, runSessionLive } from '../run-session-live.js';
import { computeBiasReport } from './bias-report-command.js';
import { countNoun } from '../count-noun.js';

export interface DemoCommandOptions {
  /** Where to keep the demo's files; default a new temporary directory. */
  home?: string;
  /** Further simulated sessions after the visible one. Default 40. */
  sessions?: number;
  /** Seed of the whole demo. Default 1. */
  seed?: number;
  /** Print one JSON document at the end (the visible session, the report, the files) instead of text. */
  json?: boolean;
}

export { DEMO_BIASES, DEMO_MEMBERS } from './demo-sessions.js';

/**
 * `council demo`: one visible council session on the simulated provider, then `sessions` more in the
 * background, then ADR-018's cross-session bias report over all of them: offline, no key, no network.
 */
export async function runDemoCommand(options: DemoCommandOptions, ctx: CommandContext): Promise<number> {
  const started = Date.now();
  const count = options.sessions ?? DEMO_SESSIONS;
  const seed = options.seed ?? 1;
  // The demo's own settings, as flags over the environment: its home, bias records on, consent 1 (nothing
  // queued for upload), no organization, and never the user's LLM_COUNCIL_BIAS_STORE, so it cannot write into real data.
  const settings = commandSettings(ctx, {
    home: options.home ?? ctx.home ?? mkdtempSync(join(tmpdir(), 'council-demo-')),
    biasPersistence: true,
    consentLevel: 1,
    org: null,
    biasStore: null,
  });
  const home = settings.home;
  const htmlPath = join(home, 'bias-report.html');
  // Checked before any session runs: the report may replace an earlier report, never a directory, FIFO or device.
  const htmlOutput = {
    path: htmlPath,
    flag: 'The demo report',
    orElse: 'move it away and run council demo again',
    settings,
  };
  checkOutputFile(htmlOutput);
  const env = settings.secrets.providerEnv;
  const demoCtx: CommandContext = { ...ctx, home };
  const paths = { biasMetrics: settings.files.biasStore };
  const { config } = await loadCouncilConfig(settings);
  const s = ctx.out;
  const say = (text: string) => ctx.io.stderr(`${text}\n`);
  // With --json, stdout carries the one document printed at the end and nothing else.
  const print: (text: string) => void = options.json === true ? () => undefined : ctx.io.stdout;
  // How the hints below name this executable: `council` when it is on the PATH, else a command that works from here.
  const me = ctx.invocation?.() ?? { command: 'council', onPath: true, packageDir: '' };

  say(
    s.dim(
      `council demo: everything below runs on the simulated provider (offline personas, no key, no network), in ${home}`,
    ),
  );
  print(`${s.bold('── Session 1: a full council on the simulated provider ──')}\n`);
  const plan: DemoPlan = { count, seed, now: ctx.now().getTime(), started };
  print(`Question: ${demoSession(plan, 0).query}\nMembers: ${DEMO_MEMBERS.join(', ')} (chairman simulated:ada)\n\n`);
  const base = demoCouncilBase(settings, config);
  // Progress goes to stderr and results to stdout. When only stderr is a terminal (`council demo | tee demo.txt`),
  // stdout reaches the screen later, through the pipe, so per-call progress lines would land in the middle of the
  // results: then one line says what runs, and the results alone follow.
  const split = ctx.io.stderrIsTTY === true && ctx.io.stdoutIsTTY !== true;
  if (split)
    say(s.dim('Running session 1 (simulated; its progress lines are left out while stdout is not a terminal)…'));
  const { session: first } = await runSessionLive({
    ctx: split ? { ...ctx, io: { ...ctx.io, stderr: () => undefined } } : ctx,
    members: DEMO_MEMBERS,
    chairman: DEMO_MEMBERS[0],
    label: 'simulated',
    council: {
      ...base,
      ...demoSession(plan, 0),
      resolveModel: createModelResolver({
        env,
        simulated: { ...DEMO_BIASES, seed, latencyScale: liveDisplayEnabled(ctx) ? 6 : 1 },
      }),
    },
  });
  print(renderSessionText({ session: first, style: s, simulated: true }));
  await persistSession({
    session: first,
    settings,
    version: ctx.version,
    keepQuestion: config.historyQuestions,
  });

  print(
    `\n${s.bold(`── Sessions 2 to ${count + 1}: ${count} more simulated councils for the cross-session statistics ──`)}\n`,
  );
  let done = 0;
  const progress = createLiveDisplay({
    write: ctx.io.stderr,
    enabled: liveDisplayEnabled(ctx),
    render: () => `${bar(done, count)} ${done}/${count} simulated sessions\n`,
  });
  const sessions: CouncilSession[] = [first];
  try {
    sessions.push(
      ...(await runDemoSessions({
        plan,
        from: 1,
        to: count,
        settings,
        config,
        version: ctx.version,
        onSession: (i) => {
          done = i;
          progress.refresh();
        },
      })),
    );
  } finally {
    progress.stop();
  }
  print(
    `Ran ${countNoun(count, 'session')} (${countNoun(
      sessions.slice(1).reduce((n, x) => n + x.stage2.length, 0),
      'review',
    )}) and saved their bias records to ${paths.biasMetrics}\n\n`,
  );

  const { document, loaded } = await computeBiasReport({ input: paths.biasMetrics }, demoCtx);
  print(
    `${s.bold(`── The cross-session bias report over ${document.report.window.sessions} simulated sessions ──`)}\n`,
  );
  print(
    renderBiasReportText({
      report: document.report,
      style: s,
      verbose: false,
      source: paths.biasMetrics,
      simulated: true,
    }),
  );
  // Through a temporary file created 0600 and renamed over the old report: mode only applies to a new file, and a
  // report left by an earlier run (or by another tool, readable by others) is replaced whole, never half-written —
  // and only a regular file is replaced (a directory, FIFO or device there is refused, naming it).
  writeOutputFile({
    ...htmlOutput,
    data: renderHtmlReport(
      htmlReportFromAudit({
        report: document.report,
        records: loaded,
        source: paths.biasMetrics,
        simulated: true,
        generatedAt: document.generatedAt,
      }),
    ),
  });
  print(
    [
      '',
      s.bold('What the demo built in, and what the report should find:'),
      '  every reviewer favours answers shown first (position bias); simulated:ada prefers its own answer (self-preference);',
      '  simulated:dmitri grades harshly (measured against the typical reviewer, so no one else looks generous).',
      '  Compare with the flags above.',
      '',
      `HTML report with charts: ${htmlPath}`,
      `Explore further: ${me.command} bias-report --home ${home} --verbose`,
      `                 ${me.command} history list --home ${home}`,
      `The demo ran in ${((Date.now() - started) / 1000).toFixed(1)} s (building Council, when npm start did, is not counted). Run a real council with: ${me.command} ask "your question" --models a,b,c (needs OPENROUTER_API_KEY).`,
      // Each command above works as printed; the way to type `council` instead, when it is not on the PATH yet.
      ...(me.onPath
        ? []
        : [`Put council on your PATH (once; it links to this build): npm install --global ${me.packageDir}`]),
      '',
    ].join('\n'),
  );
  if (options.json === true) {
    const demo = {
      kind: 'council-demo',
      home,
      htmlReport: htmlPath,
      sessions: sessions.length,
      firstSession: sessionDocument(first),
      biasReport: document,
    };
    ctx.io.stdout(`${JSON.stringify(demo, null, 2)}\n`);
  }
  return 0;
}

function bar(done: number, total: number): string {
  const width = 24;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}
