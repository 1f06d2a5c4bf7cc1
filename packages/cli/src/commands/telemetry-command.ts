import { existsSync } from 'node:fs';
import { reduceTelemetryEventToConsent, telemetryEventSchema } from '@council/core';
import type { TelemetryEvent } from '@council/core';
import { createTelemetryOutboxStore, readCursorFile, startCursor } from '@council/bias-store';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { CONSENT_NAMES } from '../provider-environment.js';
import { stripUrlCredentials } from '../strip-url-credentials.js';

export interface TelemetryCommandOptions {
  action: string | undefined;
  /** Arguments after `upload`, passed to the uploader unchanged. */
  rest: readonly string[];
  json?: boolean;
}

async function pendingEvents(ctx: CommandContext): Promise<{ events: TelemetryEvent[]; skipped: number; outbox: string; consent: number; cursorFile: string }> {
  const settings = commandSettings(ctx);
  const consent = settings.consentLevel;
  const paths = { telemetryOutbox: settings.files.outbox, telemetrySentCursor: settings.files.sentCursor };
  const events: TelemetryEvent[] = [];
  let skipped = 0;
  if (existsSync(paths.telemetryOutbox)) {
    const store = createTelemetryOutboxStore<TelemetryEvent>(paths.telemetryOutbox, telemetryEventSchema);
    const from = (await readCursorFile(paths.telemetrySentCursor)) ?? startCursor;
    for await (const entry of store.scan({ from })) {
      if (entry.kind === 'item') events.push(entry.item);
      else skipped++;
    }
  }
  return { events, skipped, outbox: paths.telemetryOutbox, consent, cursorFile: paths.telemetrySentCursor };
}

/**
 * `council telemetry status|preview|upload`. `preview` prints exactly the request body the next upload
 * would send at the current consent level; `upload` runs the telemetry uploader.
 */
export async function runTelemetryCommand(options: TelemetryCommandOptions, ctx: CommandContext): Promise<number> {
  switch (options.action ?? '') {
    case 'status': {
      const settings = commandSettings(ctx);
      const { events, skipped, outbox, consent } = await pendingEvents(ctx);
      // Shown without user-info, which can hold a credential.
      const cloudUrl = settings.cloudUrl === null ? null : stripUrlCredentials(settings.cloudUrl);
      const token = settings.cloudTokenSet;
      const status = { consentLevel: consent, consentName: CONSENT_NAMES[consent], sends: consent >= 2, outbox, pendingEvents: events.length, unreadableLines: skipped, cloudUrl, cloudToken: token ? 'present' : 'absent' };
      if (options.json) {
        ctx.io.stdout(`${JSON.stringify(status, null, 2)}\n`);
        return 0;
      }
      const what = consent < 2 ? 'nothing leaves this machine' : consent === 2 ? 'rankings only' : consent === 3 ? 'rankings, bias summary and query metadata' : 'rankings, bias summary, query metadata and salted query hashes';
      ctx.io.stdout(
        [
          `consent level     ${consent} (${CONSENT_NAMES[consent]}): ${what}`,
          `outbox            ${outbox}`,
          `pending events    ${events.length}${skipped ? ` (${skipped} unreadable lines skipped)` : ''}`,
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
      if (consent < 2) ctx.io.stderr(`council: consent level ${consent} sends nothing; the body below stays empty until LLM_COUNCIL_BIAS_CONSENT is 2 or more.\n`);
      else if (events.length === 0) ctx.io.stderr('council: the outbox has no pending event; sessions queue one each at consent level 2 or more.\n');
      const body = { events: events.slice(0, 100).flatMap((e) => reduceTelemetryEventToConsent(e, consent) ?? []) };
      ctx.io.stdout(`${JSON.stringify(body, null, 2)}\n`);
      if (events.length > 100 && consent >= 2) ctx.io.stderr(`council: showing the first batch of 100; ${events.length - 100} more events follow in later batches.\n`);
      return 0;
    }
    case 'upload': {
      if (ctx.telemetryUpload === undefined) {
        throw new CliError({ code: 'RUNTIME', message: 'telemetry upload is not available in this build: run the council-telemetry executable (apps/telemetry-uploader) instead.' });
      }
      return await ctx.telemetryUpload(options.rest);
    }
    default:
      throw new CliError({ code: 'USAGE', message: `Unknown telemetry action "${options.action ?? ''}": use status, preview or upload.` });
  }
}
