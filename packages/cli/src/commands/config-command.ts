import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BiasStoreError, createNewFile, makeDirectory } from '@council/bias-store';
import { scrubSecrets } from '@council/providers';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { CONSENT_NAMES } from '../consent-names.js';
import { biasRecordsOptIn, withConfiguredPersistence } from '../settings/bias-records-opt-in.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';

export interface ConfigCommandOptions {
  action: string | undefined;
  json?: boolean;
  /** `init --bias-records`: write `bias_persistence: true` uncommented (ADR-018's opt-in, in one step). */
  biasRecords?: boolean;
}

/**
 * `council config show|path`. `show` prints the settings in effect and where each came from (keys only as
 * present/absent), including the configuration cascade's layers, which it validates; `path` prints the home
 * directory, or every file under it with `--json`; `init` writes a commented `config.yaml` where there is none.
 */
export async function runConfigCommand(options: ConfigCommandOptions, ctx: CommandContext): Promise<number> {
  const given = commandSettings(ctx);
  // `council config` alone shows the settings, as `council history` alone lists.
  const action = options.action ?? 'show';
  if (options.biasRecords === true && action !== 'init')
    throw new CliError({
      code: 'USAGE',
      message: '--bias-records is an option of council config init (it writes config.yaml with bias records on).',
    });
  if (action === 'path') {
    if (options.json) ctx.io.stdout(`${JSON.stringify({ home: given.home, files: given.files }, null, 2)}\n`);
    else ctx.io.stdout(`${given.home}\n`);
    return 0;
  }
  if (action === 'init')
    return initConfig({ path: given.files.config, biasRecords: options.biasRecords === true }, ctx);
  if (action !== 'show') {
    throw new CliError({
      code: 'USAGE',
      message: `Unknown config action "${action}": use "council config show", "council config path" or "council config init".`,
    });
  }
  const cascade = await loadCouncilConfig(given);
  // Bias persistence as it applies: the variable when set, else the configuration files (config.yaml).
  const settings = withConfiguredPersistence(given, cascade.config);
  const persistenceOrigin = settings.variablesSet.includes('LLM_COUNCIL_BIAS_PERSISTENCE')
    ? 'LLM_COUNCIL_BIAS_PERSISTENCE'
    : cascade.config.biasPersistence
      ? 'config.yaml bias_persistence'
      : 'default';
  const council = {
    layers: cascade.sources,
    strategy: cascade.config.strategy,
    strategies: Object.keys(cascade.config.strategies).sort(),
    mode: cascade.config.mode,
    modeToggle: cascade.config.modeToggle,
    verdict: cascade.config.verdict ?? null,
    verdictMinMargin: cascade.config.verdictMinMargin,
    order: cascade.config.order,
    quorum: cascade.config.quorum,
    personalities: cascade.personalities.map((p) => p.id),
    pools: cascade.config.pools,
    modelOptions: cascade.config.modelOptions,
    maxCostUsd: cascade.config.maxCostUsd ?? null,
    maxReplyBytes: cascade.config.maxReplyBytes,
    historyQuestions: cascade.config.historyQuestions,
  };
  const keys = Object.fromEntries(
    Object.entries(settings.apiKeys).map(([v, present]) => [v, present ? 'present' : 'absent']),
  );
  if (options.json) {
    const document = {
      home: settings.home,
      homeSource: settings.homeSource,
      files: Object.fromEntries(
        Object.entries(settings.files).map(([k, p]) => [k, p === null ? null : { path: p, exists: existsSync(p) }]),
      ),
      models: settings.models,
      chairman: settings.chairman,
      org: settings.org,
      biasPersistence: settings.biasPersistence,
      biasPersistenceSource: persistenceOrigin,
      consentLevel: settings.consentLevel,
      // The document's names for the window (its shape is stable).
      windowSessions: settings.biasWindow.sessions,
      windowDays: settings.biasWindow.days,
      minSessions: settings.minSessions,
      biasThresholds: settings.biasThresholds,
      randomSeed: settings.randomSeed,
      hashSecret: settings.hashSecretSet ? 'present' : 'absent',
      cloudUrl: settings.cloudUrl === null ? null : scrubSecrets(settings.cloudUrl),
      cloudToken: settings.cloudTokenSet ? 'present' : 'absent',
      keys,
      council,
    };
    ctx.io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  const file = (p: string | null) =>
    p === null ? s.dim('(none)') : `${p} ${existsSync(p) ? '' : s.dim('(missing)')}`.trimEnd();
  const origin = (variable: string) =>
    settings.variablesSet.includes(variable) ? s.dim(`(${variable})`) : s.dim('(default)');
  const rows: [string, string][] = [
    ['home', `${settings.home} ${s.dim(`(${settings.homeSource})`)}`],
    ['config file', file(settings.files.config)],
    ['organization file', file(settings.files.orgConfig)],
    ['personalities', file(settings.files.personalities)],
    ['bias store', `${file(settings.files.biasStore)} ${origin('LLM_COUNCIL_BIAS_STORE')}`],
    ['history', file(settings.files.history)],
    [
      'history questions',
      cascade.config.historyQuestions
        ? `kept ${s.dim('(the default: history_questions: false in config.yaml keeps none)')}`
        : `not kept ${s.dim('(history_questions: false)')}`,
    ],
    ['telemetry outbox', file(settings.files.outbox)],
    [
      'models',
      `${settings.models.length ? settings.models.join(', ') : s.dim('(none: pass --models)')} ${origin('LLM_COUNCIL_MODELS')}`,
    ],
    ['chairman', `${settings.chairman ?? s.dim('(first member)')} ${origin('LLM_COUNCIL_CHAIRMAN')}`],
    ['organization', `${settings.org ?? s.dim('(none)')} ${origin('LLM_COUNCIL_ORG')}`],
    [
      'bias persistence',
      settings.biasPersistence
        ? `on ${s.dim(`(${persistenceOrigin})`)}`
        : `off ${s.dim(`(${persistenceOrigin})`)}${settings.variablesSet.includes('LLM_COUNCIL_BIAS_PERSISTENCE') ? '' : s.dim(`: to collect bias records, ${biasRecordsOptIn(settings)}`)}`,
    ],
    [
      'consent level',
      `${settings.consentLevel} ${CONSENT_NAMES[settings.consentLevel]} ${origin('LLM_COUNCIL_BIAS_CONSENT')}`,
    ],
    ['bias window', `last ${settings.biasWindow.sessions} sessions, ${settings.biasWindow.days} days`],
    ['minimum sessions', `${settings.minSessions} ${origin('LLM_COUNCIL_MIN_BIAS_SESSIONS')}`],
    [
      'length bias above',
      `|r| ${settings.biasThresholds.lengthCorrelation} ${origin('LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD')}`,
    ],
    [
      'position bias above',
      `variance ${settings.biasThresholds.positionVariance} ${origin('LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD')}`,
    ],
    [
      'random seed',
      `${settings.randomSeed ?? s.dim('(none: orders are random)')} ${origin('LLM_COUNCIL_RANDOM_SEED')}`,
    ],
    ['hash secret', settings.hashSecretSet ? 'present' : 'absent'],
    [
      'cloud',
      `${settings.cloudUrl === null ? s.dim('(not configured)') : scrubSecrets(settings.cloudUrl)}, token ${settings.cloudTokenSet ? 'present' : 'absent'}`,
    ],
    ['configuration layers', council.layers.join(' ← ')],
    [
      'defaults',
      `strategy ${council.strategy}, mode ${council.mode} (${council.modeToggle ? 'the web UI may switch it' : 'fixed: mode_toggle false'}), order ${council.order}, quorum ${council.quorum}`,
    ],
    [
      'jury',
      council.verdict === null
        ? `${s.dim('(off)')}: --verdict binary|tie-breaker for a run, verdict: in config.yaml for every run`
        : `verdict ${council.verdict}, min margin ${council.verdictMinMargin}`,
    ],
    ['strategies', council.strategies.join(', ')],
    ['personalities', council.personalities.length ? council.personalities.join(', ') : s.dim('(none)')],
    [
      'pools',
      Object.keys(council.pools).length
        ? Object.entries(council.pools)
            .map(([name, ids]) => `@${name} (${ids.join(', ')})`)
            .join('; ')
        : s.dim('(none)'),
    ],
    [
      'model options',
      Object.keys(council.modelOptions).length
        ? Object.entries(council.modelOptions)
            .map(([id, o]) => {
              // The prompt's text is the user's own and may be long: config show says it is set.
              const set = [
                o.system === undefined ? null : 'a system prompt',
                o.temperature === undefined ? null : `temperature ${o.temperature}`,
              ].filter((x) => x !== null);
              return `${id} (${set.join(', ')})`;
            })
            .join('; ')
        : s.dim('(none)'),
    ],
    [
      'limits',
      `cost ${council.maxCostUsd === null ? s.dim('(no cap)') : `at most $${council.maxCostUsd} a session`}, replies up to ${council.maxReplyBytes} bytes`,
    ],
    ...Object.entries(keys).map(([k, v]): [string, string] => [k, v]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  ctx.io.stdout(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
  return 0;
}

/**
 * `council config init`: the commented template at `path` (0600), never over an existing file; with `biasRecords`,
 * its `bias_persistence: true` line uncommented.
 */
async function initConfig(options: { path: string; biasRecords: boolean }, ctx: CommandContext): Promise<number> {
  const { path } = options;
  const { configTemplate, BIAS_PERSISTENCE_LINE } = await import('./config-template.js');
  const text = options.biasRecords
    ? configTemplate.replace(BIAS_PERSISTENCE_LINE, 'bias_persistence: true             # bias records on (ADR-018)')
    : configTemplate;
  makeDirectory(dirname(path)); // its error names the directory
  try {
    // Whole or not at all, and never over a file that exists, even one created a moment ago by something else: the
    // template goes to a temporary file, which is linked to its name (a full disk leaves no empty config.yaml behind).
    createNewFile(path, text);
  } catch (error) {
    if (BiasStoreError.isInstance(error) && error.problem?.code === 'EEXIST') {
      if (options.biasRecords) return biasRecordsInExisting(path, ctx);
      throw new CliError({
        code: 'RUNTIME',
        message: `${path} already exists; nothing was overwritten. Edit it, or move it away and run council config init again.`,
      });
    }
    if (BiasStoreError.isInstance(error))
      throw new CliError({
        code: 'RUNTIME',
        message: `${error.message} Nothing was written: run council config init again once fixed.`,
        cause: error,
      });
    throw error;
  }
  ctx.io.stdout(
    options.biasRecords
      ? `Wrote ${path}: bias records on (bias_persistence: true), every other key commented out, with its default. Uncomment what you want to change, then check it with council config show.\n`
      : `Wrote ${path}: every key commented out, with its default. Uncomment what you want to change, then check it with council config show.\n` +
          `Bias records are off until you opt in: to collect them for council bias-report, uncomment bias_persistence: true in it.\n`,
  );
  return 0;
}

/**
 * `config init --bias-records` over a config.yaml that exists (one `config init` wrote, say): nothing is rewritten, but
 * the answer says whether bias records are on in it already (exit 0) or which line to change (exit 1).
 */
function biasRecordsInExisting(path: string, ctx: CommandContext): number {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.some((line) => /^bias_persistence:\s*true\s*(#.*)?$/.test(line))) {
    ctx.io.stdout(`${path} already turns bias records on (bias_persistence: true): nothing was changed.\n`);
    return 0;
  }
  const at = lines.findIndex((line) => /^\s*#?\s*bias_persistence:/.test(line));
  throw new CliError({
    code: 'RUNTIME',
    message:
      `${path} already exists; nothing was overwritten. To turn bias records on, ` +
      (at >= 0
        ? `make its line ${at + 1} read bias_persistence: true (not commented out)`
        : 'add the line bias_persistence: true to it') +
      ', then check with council config show.',
  });
}
