import { cac } from 'cac';
import { CliError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import { processIo } from './cli-io.js';
import type { CommandContext } from './command-context.js';
import { createStyle } from './create-style.js';
import { parseCouncilRunFlags } from './parse-council-run-flags.js';
import { parseChoiceOption, parseDurationOption, parseIntegerOption, parseRepeatedStringOption, parseStringOption } from './parse-option.js';
import type { Env } from './read-cli-settings.js';
import { shouldUseColor } from './should-use-color.js';

export type { CliIo } from './cli-io.js';

export interface RunCliOptions {
  /** The version printed by `--version`: the executable's own, injected by the app that bundles it. */
  version: string;
  io?: CliIo;
  /** Environment variables. Default `process.env`. */
  env?: Env;
  /** Working directory for relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** The clock. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Runs the telemetry uploader for `council telemetry upload …` with the arguments after `upload`.
   * Packages never import apps, so the executable injects it; without it the command says it is unavailable.
   */
  telemetryUpload?: (argv: readonly string[]) => Promise<number>;
}

type Action = (ctx: CommandContext) => Promise<number> | number;

/** A positional argument as text (mri turns numeric-looking ones into numbers). */
function argText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** `--resamples n`: 0 (the asymptotic Wald F test) or at least 20 permutations, as `aggregateBiasAudit` takes them. */
function parseResamplesOption(value: unknown): number | undefined {
  const n = parseIntegerOption('resamples', value, { min: 0 });
  if (n !== undefined && n > 0 && n < 20) {
    throw new CliError({ code: 'USAGE', message: `--resamples must be 0 (the asymptotic Wald F test) or at least 20 permutations, got ${n}.` });
  }
  return n;
}

/**
 * Parses `argv` (without the node and script paths), runs the command, and returns the exit code:
 * 0 on success, 1 on a runtime failure, 2 on a usage error. Command modules are loaded only when their
 * command runs, so `--version` and `--help` stay fast.
 */
export async function runCli(argv: readonly string[], options: RunCliOptions): Promise<number> {
  const io = options.io ?? processIo();
  const env = options.env ?? process.env;
  const verbose = argv.includes('--verbose');
  const cli = cac('council');
  cli.usage('<command> [options]');
  cli.help((sections) => {
    // cac prints "council/1.2.3" first; a sentence on what the tool does reads better.
    sections[0] = { body: `council ${options.version}: convene several LLMs on one question, have them review each other blind, and measure how fair the reviewing was.` };
    if (cli.matchedCommand === undefined) {
      sections.push({
        title: 'Examples',
        body: [
          '  council demo                                   # offline: a simulated council and a bias report',
          '  council ask "Is Rust a good first language?" --models openai/gpt-4o,anthropic/claude-3.5-sonnet',
          '  council bias-report --format html --output report.html',
        ].join('\n'),
      });
    }
    sections.push({ title: 'Exit codes', body: '  0 success, 1 runtime failure, 2 usage error' });
    // cac shows a `--no-x` flag's implied default ("(default: true)"), which reads as if the flag were on.
    return sections.map((section) => (section.title === 'Options' ? { ...section, body: section.body.replace(/^(\s*--no-\S+.*?) \(default: true\)$/gm, '$1') } : section));
  });
  cli.version(options.version);
  cli.option('--verbose', 'Show stack traces on errors (and more detail where a command has it)');
  cli.option('--home <dir>', 'Use this directory instead of LLM_COUNCIL_HOME (~/.llm-council)');

  let action: Action | undefined;
  const set = (a: Action) => () => {
    action = a;
  };

  cli
    .command('config <action>', 'Show the settings in effect (show) or where Council keeps its files (path)')
    .option('--json', 'Print one JSON document')
    .example('  council config show')
    .example('  council config path')
    .example('  council config show --json')
    .action((sub: string, o: Record<string, unknown>) =>
      set(async (ctx) => (await import('./commands/config-command.js')).runConfigCommand({ action: sub, json: o['json'] === true }, ctx))(),
    );

  cli
    .command('doctor', 'Check keys (present or absent, never printed), provider reachability, the store and consent')
    .option('--json', 'Print one JSON document')
    .option('--offline', 'Skip the network probes')
    .option('--timeout <duration>', 'Time allowed for each probe (default 3s)')
    .example('  council doctor')
    .example('  council doctor --offline --json')
    .action((o: Record<string, unknown>) => {
      const timeoutMs = parseDurationOption('timeout', o['timeout']);
      set(async (ctx) =>
        (await import('./commands/doctor-command.js')).runDoctorCommand({ json: o['json'] === true, offline: o['offline'] === true, timeoutMs }, ctx),
      )();
    });

  cli
    .command('ask <question>', 'Convene the council on one question: live progress, then the answer, leaderboard and bias indicators')
    .option('--models <ids>', 'Comma-separated member model ids (default LLM_COUNCIL_MODELS)')
    .option('--chairman <id>', 'The model that synthesises (default LLM_COUNCIL_CHAIRMAN, else the first member)')
    .option('--strategy <key>', 'balanced, risk-averse, goal-seeking, novelty, or a key from your configuration')
    .option('--goal <text>', 'The goal for the goal-seeking strategy')
    .option('--mode <mode>', 'consensus or voting')
    .option('--order <mode>', 'How answers are ordered for each reviewer: shared, per-reviewer or latin-square')
    .option('--seed <n>', 'Seed the orders and labels (default LLM_COUNCIL_RANDOM_SEED)')
    .option('--timeout <duration>', 'Deadline of each model call, e.g. 60s or 2m')
    .option('--org <id>', 'Apply this organization\'s configuration (default LLM_COUNCIL_ORG)')
    .option('--no-persist', 'Save nothing: no history, bias records or telemetry')
    .option('--json', 'Print the whole session as one JSON document')
    .example('  council ask "What is the capital of Australia?" --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001')
    .example('  council ask "Plan a database migration" --strategy risk-averse --order latin-square --seed 7')
    .example('  council ask "Which sorting algorithm?" --models simulated:ada,simulated:basil,simulated:cleo --json')
    .action((question: unknown, o: Record<string, unknown>) => {
      const parsed = { question: argText(question) ?? '', ...parseCouncilRunFlags(o), org: parseStringOption('org', o['org']) };
      set(async (ctx) => (await import('./commands/ask-command.js')).runAskCommand(parsed, ctx))();
    });

  cli
    .command('bias-report', 'ADR-018\'s cross-session bias report: tiered text, JSON, CSV or a self-contained HTML page')
    .option('--input <path>', 'A bias store file, a directory of stores, or a quoted glob; repeat to merge stores by session (default LLM_COUNCIL_BIAS_STORE or $LLM_COUNCIL_HOME/bias_metrics.jsonl)')
    .option('--sessions <n>', 'Use the most recent n sessions (default LLM_COUNCIL_BIAS_WINDOW_SESSIONS, 100)')
    .option('--days <n>', 'Use sessions of the last n days (default LLM_COUNCIL_BIAS_WINDOW_DAYS, 30)')
    .option('--format <format>', 'text, json, csv or html (default text)')
    .option('--output <file>', 'Write the report to a file instead of stdout')
    .option('--config-version <v>', 'Only records of this council configuration version')
    .option('--model <id>', 'Only records where this model reviewed or was reviewed')
    .option('--now <time>', 'End of the window, ISO 8601 (default now): for reproducible reports')
    .option('--resamples <n>', 'Permutations per position test: 0 for the asymptotic Wald F test, else at least 20 (default 1000 below 100 sessions, else 0)')
    .option('--seed <n>', 'Seed of the permutations (default 1): the same records give the same report')
    .example('  council bias-report')
    .example('  council bias-report --sessions 50 --verbose')
    .example('  council bias-report --format html --output bias-report.html')
    .example('  council bias-report --input ./logs.jsonl --format json > report.json')
    .example("  council bias-report --input alice/bias_metrics.jsonl --input 'team/*.jsonl.gz'")
    .action((o: Record<string, unknown>) => {
      const parsed = {
        input: parseRepeatedStringOption('input', o['input']),
        sessions: parseIntegerOption('sessions', o['sessions'], { min: 1 }),
        days: parseIntegerOption('days', o['days'], { min: 1 }),
        format: parseChoiceOption('format', o['format'], ['text', 'json', 'csv', 'html'] as const),
        output: parseStringOption('output', o['output']),
        verbose: o['verbose'] === true,
        configVersion: parseStringOption('config-version', o['configVersion']),
        model: parseStringOption('model', o['model']),
        now: parseStringOption('now', o['now']),
        resamples: parseResamplesOption(o['resamples']),
        seed: parseIntegerOption('seed', o['seed'], { min: 0 }),
      };
      set(async (ctx) => (await import('./commands/bias-report-command.js')).runBiasReportCommand(parsed, ctx))();
    });

  cli
    .command('demo', 'Offline: one visible council on the simulated provider, 40 more, and the cross-session bias report')
    .option('--sessions <n>', 'Simulated sessions after the visible one (default 40)')
    .option('--seed <n>', 'Seed of the whole demo (default 1): the same seed gives the same sessions and report')
    .example('  council demo')
    .example('  council demo --home ./demo-home --sessions 60')
    .action((o: Record<string, unknown>) => {
      const parsed = { sessions: parseIntegerOption('sessions', o['sessions'], { min: 10, max: 10_000 }), seed: parseIntegerOption('seed', o['seed'], { min: 0 }) };
      set(async (ctx) => (await import('./commands/demo-command.js')).runDemoCommand(parsed, ctx))();
    });

  cli
    .command('batch <file>', 'Run many sessions from a prompts file (.txt: one per line; .jsonl: {"prompt": …}), resumable')
    .option('--models <ids>', 'Comma-separated member model ids (default LLM_COUNCIL_MODELS)')
    .option('--chairman <id>', 'The model that synthesises (default LLM_COUNCIL_CHAIRMAN, else the first member)')
    .option('--strategy <key>', 'balanced, risk-averse, goal-seeking, novelty, or a key from your configuration')
    .option('--goal <text>', 'The goal for the goal-seeking strategy')
    .option('--mode <mode>', 'consensus or voting')
    .option('--order <mode>', 'shared, per-reviewer or latin-square')
    .option('--seed <n>', 'Seed the orders and labels of every session')
    .option('--timeout <duration>', 'Deadline of each model call, e.g. 60s')
    .option('--concurrency <n>', 'Sessions in flight at once (default 2)')
    .option('--output <file>', 'Results file, one JSON line per prompt (default <file>.results.jsonl)')
    .option('--resume', 'Skip prompts already completed in the results file')
    .option('--no-persist', 'Save no history, bias records or telemetry')
    .option('--json', 'Print the summary and leaderboard as one JSON document')
    .example('  council batch prompts.txt --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001')
    .example('  council batch prompts.jsonl --concurrency 4 --resume')
    .action((file: unknown, o: Record<string, unknown>) => {
      const parsed = {
        file: argText(file) ?? '',
        ...parseCouncilRunFlags(o),
        concurrency: parseIntegerOption('concurrency', o['concurrency'], { min: 1, max: 64 }),
        output: parseStringOption('output', o['output']),
        resume: o['resume'] === true,
      };
      set(async (ctx) => (await import('./commands/batch-command.js')).runBatchCommand(parsed, ctx))();
    });

  cli
    .command('leaderboard', 'Cross-query standings from the history: mean Borda and Bradley–Terry ratings with intervals')
    .option('--days <n>', 'Only sessions of the last n days')
    .option('--category <name>', 'Only sessions of this query category (coding, math, writing, analysis, general)')
    .option('--by-category', 'One table per category')
    .option('--json', 'Print one JSON document')
    .example('  council leaderboard')
    .example('  council leaderboard --days 7 --by-category')
    .example('  council leaderboard --category coding --json')
    .action((o: Record<string, unknown>) => {
      const parsed = {
        days: parseIntegerOption('days', o['days'], { min: 1 }),
        // The categories of @council/bias-store's detectQueryCategory (written out here to keep startup light).
        category: parseChoiceOption('category', o['category'], ['coding', 'math', 'writing', 'analysis', 'general'] as const),
        byCategory: o['byCategory'] === true,
        json: o['json'] === true,
      };
      set(async (ctx) => (await import('./commands/leaderboard-command.js')).runLeaderboardCommand(parsed, ctx))();
    });

  cli
    .command('history <action> [id]', 'List past sessions (list) or show one (show <id>); the query text is never stored')
    .option('--limit <n>', 'list: the most recent n sessions (default 20)')
    .option('--json', 'Print JSON')
    .example('  council history list')
    .example('  council history show 3f2a9c1e')
    .action((action: unknown, id: unknown, o: Record<string, unknown>) => {
      const parsed = {
        action: argText(action),
        id: argText(id),
        limit: parseIntegerOption('limit', o['limit'], { min: 1 }),
        json: o['json'] === true,
      };
      set(async (ctx) => (await import('./commands/history-command.js')).runHistoryCommand(parsed, ctx))();
    });

  cli
    .command('store <action>', 'The bias store: what it holds (stats), or gzip its closed segments (compact); nothing is rewritten in place')
    .option('--input <file>', 'The store\'s .jsonl file (default LLM_COUNCIL_BIAS_STORE or $LLM_COUNCIL_HOME/bias_metrics.jsonl)')
    .option('--min-age <duration>', 'compact: gzip only segments unchanged for this long, waiting for it after closing the active file (default 0: safe while councils run)')
    .option('--json', 'Print one JSON document')
    .example('  council store stats')
    .example('  council store compact')
    .example('  council store stats --input ./bias_metrics.jsonl --json')
    .action((action: unknown, o: Record<string, unknown>) => {
      // 0 is a valid age here (compact at once), which parseDurationOption refuses as a timeout.
      const minAge = o['minAge'];
      const zero = (typeof minAge === 'string' || typeof minAge === 'number') && /^0+(\.0+)?(ms|s|m)?$/.test(String(minAge).trim());
      const parsed = {
        action: argText(action),
        input: parseStringOption('input', o['input']),
        minAgeMs: zero ? 0 : parseDurationOption('min-age', minAge),
        json: o['json'] === true,
      };
      set(async (ctx) => (await import('./commands/store-command.js')).runStoreCommand(parsed, ctx))();
    });

  cli
    .command('personalities <action> [...ids]', 'List, show or evolve the YAML personalities in $LLM_COUNCIL_HOME/personalities')
    .option('--model <id>', 'evolve: the model that designs the offspring (default the first parent\'s)')
    .option('--save', 'evolve: save the offspring as personalities/<id>.yaml (never overwrites)')
    .option('--json', 'Print JSON')
    .example('  council personalities list')
    .example('  council personalities show careful-engineer')
    .example('  council personalities evolve careful-engineer bold-architect --save')
    .action((action: unknown, ids: unknown, o: Record<string, unknown>) => {
      const parsed = {
        action: argText(action),
        ids: Array.isArray(ids) ? ids.map((x) => argText(x) ?? '') : [],
        model: parseStringOption('model', o['model']),
        save: o['save'] === true,
        json: o['json'] === true,
      };
      set(async (ctx) => (await import('./commands/personalities-command.js')).runPersonalitiesCommand(parsed, ctx))();
    });

  cli
    .command('feedback <id>', 'What peers wrote about one member across the history: counted strengths and weaknesses')
    .option('--model <id>', 'Also ask this model for a short written summary of the themes')
    .option('--top <n>', 'Themes per list (default 10)')
    .option('--json', 'Print JSON')
    .example('  council feedback anthropic/claude-3.5-sonnet')
    .example('  council feedback careful-engineer --model openai/gpt-4o-mini')
    .action((id: unknown, o: Record<string, unknown>) => {
      const parsed = { id: argText(id) ?? '', model: parseStringOption('model', o['model']), top: parseIntegerOption('top', o['top'], { min: 1 }), json: o['json'] === true };
      set(async (ctx) => (await import('./commands/feedback-command.js')).runFeedbackCommand(parsed, ctx))();
    });

  cli
    .command('telemetry <action> [...args]', 'Consent-level telemetry: status, preview (the exact JSON that would be sent) or upload')
    .allowUnknownOptions()
    .option('--json', 'status: print JSON')
    .example('  council telemetry status')
    .example('  council telemetry preview')
    .example('  council telemetry upload --dry-run')
    .action((action: unknown, _args: unknown, o: Record<string, unknown>) => {
      const sub = argText(action);
      // `upload` hands every argument after it to the uploader untouched (its own options and help).
      const at = argv.indexOf('upload');
      const rest = sub === 'upload' && at >= 0 ? argv.slice(at + 1).filter((a) => a !== '--verbose') : [];
      if (sub === 'upload' && o['home'] !== undefined) {
        throw new CliError({ code: 'USAGE', message: 'telemetry upload reads LLM_COUNCIL_HOME, not --home: run it as LLM_COUNCIL_HOME=<dir> council telemetry upload.' });
      }
      const parsed = { action: sub, rest, json: o['json'] === true };
      set(async (ctx) => (await import('./commands/telemetry-command.js')).runTelemetryCommand(parsed, ctx))();
    });

  const captured: string[] = [];
  const originalInfo = console.info;
  // cac prints help and version through console.info; route them to the caller's stdout.
  console.info = (...parts: unknown[]) => captured.push(parts.map(String).join(' ') + '\n');
  let parsedOptions: Record<string, unknown> = {};
  try {
    try {
      const parsed = cli.parse(['node', 'council', ...argv], { run: false });
      parsedOptions = parsed.options;
      if (parsed.options['help'] || parsed.options['version']) return 0;
      if (cli.matchedCommand === undefined) {
        if (parsed.args.length > 0) {
          throw new CliError({
            code: 'USAGE',
            message: `Unknown command "${String(parsed.args[0])}". Run "council --help" to see the commands.`,
          });
        }
        cli.outputHelp();
        return 0;
      }
      await cli.runMatchedCommand();
    } finally {
      console.info = originalInfo;
      for (const line of captured) io.stdout(line);
      captured.length = 0;
    }
    if (action === undefined) return 0;
    const ctx: CommandContext = {
      io,
      env,
      cwd: options.cwd ?? process.cwd(),
      now: options.now ?? (() => new Date()),
      out: createStyle(shouldUseColor({ isTTY: io.stdoutIsTTY === true, env })),
      err: createStyle(shouldUseColor({ isTTY: io.stderrIsTTY === true, env })),
      verbose,
      home: parseStringOption('home', parsedOptions['home']),
      version: options.version,
      telemetryUpload: options.telemetryUpload,
    };
    return await action(ctx);
  } catch (error) {
    return reportError(error, io, verbose);
  }
}

/** Error codes of the other Council packages that mean "the input or configuration is wrong" (exit 2). */
const USAGE_CODES = new Set(['USAGE', 'INVALID_CONFIG', 'CONFIG_INVALID', 'INVALID_OPTIONS', 'INVALID_OPTION', 'UNKNOWN_STRATEGY', 'UNKNOWN_PROVIDER', 'INVALID_SETTINGS', 'PERSONALITY_INVALID']);

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function reportError(error: unknown, io: CliIo, verbose: boolean): number {
  const code = errorCode(error);
  const isUsage = CliError.isInstance(error) ? error.code === 'USAGE' : isCacUsageError(error) || (code !== undefined && USAGE_CODES.has(code));
  const raw = error instanceof Error ? error.message : String(error);
  // One line: a multi-line message (a list of problems) is joined.
  let message = raw
    .split('\n')
    .map((line) => line.trim().replace(/^- /, ''))
    .filter((line) => line !== '')
    .join(' ');
  if (isCacUsageError(error)) message = `${message}. Run "council <command> --help" for the options.`;
  else if (!CliError.isInstance(error) && code === undefined && !verbose) message = `${message} (run again with --verbose for the stack trace)`;
  io.stderr(`council: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return isUsage ? 2 : 1;
}

function isCacUsageError(error: unknown): boolean {
  return error instanceof Error && error.name === 'CACError';
}
