import { join, dirname } from 'node:path';
import type { TelemetryOutboxPaths } from '@council/bias-store';
import { parseArgs } from 'node:util';
import { omitUndefined } from '../omit-undefined.js';
import type { CouncilSettings } from '../settings/council-settings.js';
import { safeResolveCouncilSettings } from '../settings/resolve-council-settings.js';
import { formatRetryDeadSummary } from './format-retry-dead-summary.js';
import { formatUploadSummary } from './format-upload-summary.js';
import { createIngestClient } from './ingest-client.js';
import { maxEventsPerBatch } from './ingest-contract.js';
import { parseDuration } from './parse-duration.js';
import { retryDeadLetters } from './retry-dead-letters.js';
import type { TelemetryCliEnv, TelemetryCliIo, TelemetryCliOptions } from './run-telemetry-cli.js';
import { telemetryLinePrefix } from './run-telemetry-cli.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';
import { acquireUploadLock } from './upload-lock.js';
import type { UploadSummary } from './upload-summary.js';
import { uploadOutbox } from './upload-outbox.js';

const usage = (version: string, name: string): string => `${name} ${version}

Sends the consented session summaries queued in $LLM_COUNCIL_HOME/telemetry/outbox.jsonl to council-cloud,
never more than each event's consent level allows (ADR-018). Nothing is queued below consent level 2.

Usage:
  ${name} upload [--dry-run] [--batch-size N] [--max-events N] [--watch --interval 60s]
  ${name} retry-dead [--dry-run]
  ${name} --help
  ${name} --version

Options for upload:
  --dry-run         Print the batches that would be sent; send nothing, move nothing.
  --batch-size N    Events per request, 1 to ${maxEventsPerBatch} (default ${maxEventsPerBatch}).
  --max-events N    Stop after N events.
  --watch           Keep running: upload, wait --interval, upload again, until interrupted.
  --interval T      The wait between uploads with --watch: 60s, 5m, 1h… (default 60s).

retry-dead queues again the events council-cloud refused (listed in telemetry/dead-letter.jsonl since the
last retry-dead), for the next upload; --dry-run only counts them. Each event keeps its event_id, so one
council-cloud already has is not stored twice.

Environment:
  LLM_COUNCIL_CLOUD_URL     council-cloud's base URL (https; http only for localhost). Required to send.
  LLM_COUNCIL_CLOUD_TOKEN   The bearer token. Required to send; sent only in the Authorization header.
  LLM_COUNCIL_HOME          Where the outbox lives (default ~/.llm-council).
  LLM_COUNCIL_BIAS_CONSENT  Your consent level now, 0-4. Below 2 nothing is sent; events queued at a
                            higher level are sent without the fields above it.

Exit codes: 0 done, 1 the upload failed or ended with events unsent (see the message), 2 a usage or
configuration error.
`;

function usageError(message: string): TelemetryUploadError {
  return new TelemetryUploadError({ code: 'USAGE', message });
}

function parseCount(value: string | undefined, option: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > max) {
    throw usageError(`${option} ${JSON.stringify(value.slice(0, 40))} is not a whole number from 1 to ${max}.`);
  }
  return Number(value);
}

/** Whether the cloud settings can be sent to: both set, a token that fits a header, an https URL (http only for loopback). */
function readCloudConfig(settings: CouncilSettings): { url: string; token: string } {
  const url = settings.cloudUrl ?? '';
  const token = settings.secrets.cloudToken ?? '';
  const missing = [url === '' ? 'LLM_COUNCIL_CLOUD_URL' : null, token === '' ? 'LLM_COUNCIL_CLOUD_TOKEN' : null].filter(
    (v) => v !== null,
  );
  if (missing.length > 0) {
    throw new TelemetryUploadError({
      code: 'MISSING_CONFIG',
      message: `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set, so there is nowhere to send to. Set ${missing.length > 1 ? 'them' : 'it'} (council-cloud's base URL and your token), or use --dry-run to see what would be sent. Nothing was sent.`,
    });
  }
  // A bearer token is visible ASCII (RFC 6750); anything else cannot go in a header and would fail every
  // request as an obscure "network error". The token itself is never shown.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new TelemetryUploadError({
      code: 'INVALID_CONFIG',
      message: `LLM_COUNCIL_CLOUD_TOKEN holds a character a bearer token cannot have (a space, a control character or a non-ASCII letter; it is not shown here). Copy the token again from council-cloud. Nothing was sent.`,
    });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TelemetryUploadError({
      code: 'INVALID_CONFIG',
      message: `LLM_COUNCIL_CLOUD_URL is not a URL; set it to council-cloud's base URL, e.g. https://cloud.example.com. Nothing was sent.`,
    });
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new TelemetryUploadError({
      code: 'INVALID_CONFIG',
      message: `LLM_COUNCIL_CLOUD_URL must use https (plain http only for localhost), so the token is never sent in the clear; it uses ${parsed.protocol.replace(':', '')}. Nothing was sent.`,
    });
  }
  return { url, token };
}

/** The settings, or a configuration error (exit 2) naming each invalid variable. */
function readSettings(env: TelemetryCliEnv): CouncilSettings {
  const result = safeResolveCouncilSettings(env);
  if (!result.success) throw new TelemetryUploadError({ code: 'INVALID_CONFIG', message: result.error.message });
  return result.value;
}

/** The consent level now, when the user set one: events queued at a higher level are sent without the fields above it. */
function readConsentCeiling(settings: CouncilSettings): number | undefined {
  return settings.variablesSet.includes('LLM_COUNCIL_BIAS_CONSENT') ? settings.consentLevel : undefined;
}

/** What both subcommands read first: the settings, the consent ceiling, and the outbox's files. */
function readTelemetrySetup(env: TelemetryCliEnv): {
  settings: CouncilSettings;
  ceiling: number | undefined;
  paths: TelemetryOutboxPaths;
} {
  const settings = readSettings(env);
  const { outbox, sentCursor, deadLetter } = settings.files;
  return { settings, ceiling: readConsentCeiling(settings), paths: { outbox, cursor: sentCursor, deadLetter } };
}

/** Below consent level 2 telemetry is off: says so on stdout, then what was left where (`left`); true when it is. */
function reportTelemetryOff(ceiling: number | undefined, io: TelemetryCliIo, left: string): boolean {
  if (ceiling === undefined || ceiling >= 2) return false;
  io.stdout(
    `Telemetry is off: LLM_COUNCIL_BIAS_CONSENT is ${ceiling}, and only levels 2 to 4 send anything. ${left}\n`,
  );
  return true;
}

function abortableSleep(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return sleep(ms);
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done);
    sleep(ms).then(done, done);
  });
}

/** `council-telemetry retry-dead [--dry-run]`: the dead letters council-cloud refused, queued again for the next upload. */
async function runRetryDead(
  dryRun: boolean,
  options: TelemetryCliOptions & { io: TelemetryCliIo; env: TelemetryCliEnv },
): Promise<number> {
  const { io } = options;
  const { paths, ceiling } = readTelemetrySetup(options.env);
  if (reportTelemetryOff(ceiling, io, `Nothing was queued again; the dead letters stay in ${paths.deadLetter}.`))
    return 0;
  const summary = await retryDeadLetters({ paths, dryRun, ...omitUndefined({ now: options.now }) });
  io.stdout(formatRetryDeadSummary(summary, paths, `${options.invokedAs ?? 'council-telemetry'} upload`));
  if (summary.error !== null) throw summary.error;
  return 0;
}

/**
 * The command `argv` names, run: `--version`, `--help`, `upload […]` or `retry-dead […]`, with the usage text, the
 * flags' checks, the settings and the cloud configuration. An expected failure is thrown as a `TelemetryUploadError`,
 * which `runTelemetryCli` reports with its exit code; this module is what `runTelemetryCli` loads when it is called.
 */
export async function runCouncilTelemetryCommand(
  argv: readonly string[],
  options: TelemetryCliOptions & { io: TelemetryCliIo; env: TelemetryCliEnv },
): Promise<number> {
  const { io, env } = options;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        'dry-run': { type: 'boolean' },
        'batch-size': { type: 'string' },
        'max-events': { type: 'string' },
        watch: { type: 'boolean' },
        interval: { type: 'string' },
      },
    });
  } catch (error) {
    // parseArgs names the offending option in its message, e.g. "Unknown option '--nope'".
    throw usageError(
      `${error instanceof Error ? error.message.split('\n')[0]!.replace(/\.?$/, '.') : 'Invalid arguments.'}`,
    );
  }
  const { values, positionals } = parsed;
  if (values.version === true) {
    io.stdout(`${options.version}\n`);
    return 0;
  }
  if (values.help === true || positionals.length === 0) {
    io.stdout(usage(options.version, options.invokedAs ?? 'council-telemetry'));
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command !== 'upload' && command !== 'retry-dead') throw usageError(`Unknown command "${command}".`);
  if (rest.length > 0) throw usageError(`${command} takes no arguments, got "${rest[0]}".`);
  if (command === 'retry-dead') {
    const extra = (['batch-size', 'max-events', 'watch', 'interval'] as const).find(
      (name) => values[name] !== undefined,
    );
    if (extra !== undefined) throw usageError(`--${extra} is an option of upload; retry-dead takes only --dry-run.`);
    return await runRetryDead(values['dry-run'] === true, options);
  }

  const batchSize = parseCount(values['batch-size'], '--batch-size', maxEventsPerBatch) ?? maxEventsPerBatch;
  const maxEvents = parseCount(values['max-events'], '--max-events', Number.MAX_SAFE_INTEGER);
  if (values.interval !== undefined && values.watch !== true) throw usageError('--interval only applies with --watch.');
  const intervalMs = values.watch === true ? parseDuration(values.interval ?? '60s', '--interval') : 0;
  const dryRun = values['dry-run'] === true;
  if (dryRun && values.watch === true)
    throw usageError(
      '--dry-run and --watch cannot be combined: a dry run sends nothing, so it would print the same batches forever.',
    );

  const { settings, ceiling, paths: outboxPaths } = readTelemetrySetup(env);
  if (reportTelemetryOff(ceiling, io, `Nothing was sent; queued events stay in ${outboxPaths.outbox}.`)) return 0;

  let client = null;
  if (!dryRun) {
    const cloud = readCloudConfig(settings);
    client = createIngestClient({
      baseUrl: cloud.url,
      token: cloud.token,
      // The app, its version, the runtime and the platform; not the kernel release, which adds nothing but fingerprint.
      userAgent: `council-telemetry/${options.version} (node/${process.versions.node}; ${process.platform})`,
      ...omitUndefined({ timeoutMs: options.timeoutMs, now: options.now }),
    });
  }
  const lockPath = join(dirname(outboxPaths.outbox), 'upload.lock');

  const runOnce = async (): Promise<UploadSummary> => {
    const lock = dryRun ? null : await acquireUploadLock({ path: lockPath, ...omitUndefined({ now: options.now }) });
    let batchNumber = 0;
    try {
      return await uploadOutbox({
        paths: outboxPaths,
        client,
        dryRun,
        batchSize,
        ...omitUndefined({
          maxEvents,
          consentCeiling: ceiling,
          sleep: options.sleep,
          now: options.now,
          random: options.random,
          maxAttempts: options.maxAttempts,
          backoff: options.backoff,
        }),
        onCommit: async () => {
          await lock?.refresh();
          options.afterCommit?.();
        },
        onNotice: (text) => io.stderr(`${telemetryLinePrefix(options)}: ${text}\n`),
        onDryRunBatch: (body) => {
          batchNumber++;
          io.stdout(
            `# batch ${batchNumber}: ${body.events.length} event${body.events.length === 1 ? '' : 's'} (POST /v1/events)\n${JSON.stringify(body, null, 2)}\n`,
          );
        },
      });
    } finally {
      await lock?.release();
    }
  };

  if (values.watch !== true) {
    const summary = await runOnce();
    io.stdout(formatUploadSummary(summary, outboxPaths.deadLetter));
    if (summary.error !== null) throw summary.error;
    return 0;
  }

  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  while (options.signal?.aborted !== true) {
    let summary: UploadSummary | null = null;
    try {
      summary = await runOnce();
    } catch (error) {
      if (!TelemetryUploadError.isInstance(error) || !error.isRetryable) throw error;
      io.stderr(`${telemetryLinePrefix(options)}: ${error.message}\n`);
    }
    if (summary !== null) {
      io.stdout(
        `[${new Date((options.now ?? Date.now)()).toISOString()}] ${formatUploadSummary(summary, outboxPaths.deadLetter)}`,
      );
      if (summary.error !== null) {
        if (!summary.error.isRetryable) throw summary.error;
        io.stderr(`${telemetryLinePrefix(options)}: ${summary.error.message}\n`);
      }
    }
    await abortableSleep(sleep, intervalMs, options.signal);
  }
  return 0;
}
