import { existsSync } from 'node:fs';
import { reduceTelemetryEventToConsent, telemetryEventSchema } from '@council/core';
import type { TelemetryEvent } from '@council/core';
import { createTelemetryOutboxStore, readCursorFile, startCursor } from '@council/bias-store';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { CONSENT_NAMES } from '../consent-names.js';
import { stripUrlCredentials } from '../strip-url-credentials.js';

export interface TelemetryCommandOptions {
  action: string | undefined;
  /** Arguments after `upload`, passed to the uploader unchanged. */
  rest: readonly string[];
  json?: boolean;
  /** `retry-dead --dry-run`: count, change nothing. */
  dryRun?: boolean;
}

async function pendingEvents(
  ctx: CommandContext,
): Promise<{ events: TelemetryEvent[]; skipped: number; outbox: string; consent: number; cursorFile: string }> {
  const settings = commandSettings(ctx);
  const consent = settings.consentLevel;
  const paths = { telemetryOutbox: settings.files.outbox, telemetrySentCursor: settings.files.sentCursor };
  const events: TelemetryEvent[] = [];
  let skipped = 0;
  // The store reads its segments too: after a rotation the active file may be gone while events wait in a segment.
  const store = createTelemetryOutboxStore<TelemetryEvent>(paths.telemetryOutbox, telemetryEventSchema);
  const from = (await readCursorFile(paths.telemetrySentCursor)) ?? startCursor;
  for await (const entry of store.scan({ from })) {
    if (entry.kind === 'item') events.push(entry.item);
    else skipped++;
  }
  return { events, skipped, outbox: paths.telemetryOutbox, consent, cursorFile: paths.telemetrySentCursor };
}

/** Events council-cloud refused since the last retry-dead that it would queue again; null when that cannot be told (e.g. a bad cursor). */
async function retryableDeadLetters(settings: ReturnType<typeof commandSettings>): Promise<number | null> {
  if (!existsSync(settings.files.deadLetter)) return 0;
  const { retryDeadLetters } = await import('../telemetry-upload/retry-dead-letters.js');
  const paths = {
    outbox: settings.files.outbox,
    cursor: settings.files.sentCursor,
    deadLetter: settings.files.deadLetter,
  };
  const summary = await retryDeadLetters({ paths, dryRun: true });
  return summary.error === null ? summary.queued : null;
}

/**
 * `council telemetry retry-dead [--dry-run]`: the events council-cloud refused, queued again for the next upload
 * (`retryDeadLetters`: the dead-letter file is never rewritten; its own cursor moves). Needs no cloud settings.
 */
async function retryDead(options: TelemetryCommandOptions, ctx: CommandContext): Promise<number> {
  const settings = commandSettings(ctx);
  const paths = {
    outbox: settings.files.outbox,
    cursor: settings.files.sentCursor,
    deadLetter: settings.files.deadLetter,
  };
  if (settings.variablesSet.includes('LLM_COUNCIL_BIAS_CONSENT') && settings.consentLevel < 2) {
    ctx.io.stdout(
      `Telemetry is off: LLM_COUNCIL_BIAS_CONSENT is ${settings.consentLevel}, and only levels 2 to 4 send anything. Nothing was queued again; the dead letters stay in ${paths.deadLetter}.\n`,
    );
    return 0;
  }
  const { retryDeadLetters } = await import('../telemetry-upload/retry-dead-letters.js');
  const { formatRetryDeadSummary } = await import('../telemetry-upload/format-retry-dead-summary.js');
  const summary = await retryDeadLetters({ paths, dryRun: options.dryRun === true, now: () => ctx.now().getTime() });
  ctx.io.stdout(formatRetryDeadSummary(summary, paths, 'council telemetry upload'));
  if (summary.error !== null) throw summary.error;
  return 0;
}

/**
 * `council telemetry status|preview|upload|retry-dead`. `preview` prints exactly the request body the next
 * upload would send at the current consent level; `upload` runs the telemetry uploader; `retry-dead` queues the
 * events council-cloud refused again.
 */
export async function runTelemetryCommand(options: TelemetryCommandOptions, ctx: CommandContext): Promise<number> {
  // `council telemetry` alone shows the status, as `council history` alone lists.
  switch (options.action ?? 'status') {
    case 'status': {
      const settings = commandSettings(ctx);
      const { events, skipped, outbox, consent } = await pendingEvents(ctx);
      // Shown without user-info, which can hold a credential.
      const cloudUrl = settings.cloudUrl === null ? null : stripUrlCredentials(settings.cloudUrl);
      const token = settings.cloudTokenSet;
      const deadLetters = await retryableDeadLetters(settings);
      const status = {
        consentLevel: consent,
        consentName: CONSENT_NAMES[consent],
        sends: consent >= 2,
        outbox,
        pendingEvents: events.length,
        unreadableLines: skipped,
        retryableDeadLetters: deadLetters,
        cloudUrl,
        cloudToken: token ? 'present' : 'absent',
      };
      if (options.json) {
        ctx.io.stdout(`${JSON.stringify(status, null, 2)}\n`);
        return 0;
      }
      const what =
        consent < 2
          ? 'nothing leaves this machine'
          : consent === 2
            ? 'rankings only'
            : consent === 3
              ? 'rankings, bias summary and query metadata'
              : 'rankings, bias summary, query metadata and salted query hashes';
      ctx.io.stdout(
        [
          `consent level     ${consent} (${CONSENT_NAMES[consent]}): ${what}`,
          `outbox            ${outbox}`,
          `pending events    ${events.length}${skipped ? ` (${skipped} unreadable lines skipped)` : ''}`,
          ...(deadLetters === 0
            ? []
            : [
                `dead letters      ${deadLetters ?? 'unknown (see council telemetry retry-dead --dry-run)'} refused by council-cloud, not yet retried: council telemetry retry-dead queues them again`,
              ]),
          `council-cloud     ${cloudUrl ?? 'not configured (LLM_COUNCIL_CLOUD_URL)'}, token ${token ? 'present' : 'absent'}`,
          consent < 2
            ? 'Telemetry is off: nothing is sent below consent level 2. Turn it on: LLM_COUNCIL_BIAS_CONSENT=2 (rankings only).'
            : 'Preview what would be sent: council telemetry preview. Turn it off: LLM_COUNCIL_BIAS_CONSENT=1 (bias records kept on this machine only).',
          '',
        ].join('\n'),
      );
      return 0;
    }
    case 'preview': {
      const { events, consent } = await pendingEvents(ctx);
      if (consent < 2)
        ctx.io.stderr(
          `council: consent level ${consent} sends nothing; the body below stays empty until LLM_COUNCIL_BIAS_CONSENT is 2 or more.\n`,
        );
      else if (events.length === 0)
        ctx.io.stderr(
          'council: the outbox has no pending event; sessions queue one each at consent level 2 or more.\n',
        );
      const body = { events: events.slice(0, 100).flatMap((e) => reduceTelemetryEventToConsent(e, consent) ?? []) };
      ctx.io.stdout(`${JSON.stringify(body, null, 2)}\n`);
      if (events.length > 100 && consent >= 2)
        ctx.io.stderr(
          `council: showing the first batch of 100; ${events.length - 100} more events follow in later batches.\n`,
        );
      return 0;
    }
    case 'upload': {
      if (ctx.telemetryUpload === undefined) {
        throw new CliError({
          code: 'RUNTIME',
          message:
            'telemetry upload is not available in this build: run the council-telemetry executable (apps/telemetry-uploader) instead.',
        });
      }
      return await ctx.telemetryUpload(options.rest);
    }
    case 'retry-dead':
      return await retryDead(options, ctx);
    default:
      throw new CliError({
        code: 'USAGE',
        message: `Unknown telemetry action "${options.action ?? ''}": use status, preview, upload or retry-dead.`,
      });
  }
}
