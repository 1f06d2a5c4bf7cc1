import type { TelemetryOutboxPaths } from '@council/bias-store';
import type { RetryDeadLettersSummary } from './retry-dead-letters.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The end of a `retry-dead` run: what was read, queued again, already queued and not retried (and why). Counts
 * and paths only, never event content. `upload` is the command that sends the queue (`council telemetry upload`
 * or `council-telemetry upload`).
 */
export function formatRetryDeadSummary(
  summary: RetryDeadLettersSummary,
  paths: TelemetryOutboxPaths,
  upload: string,
): string {
  const lines: string[] = [];
  if (summary.read === 0 && summary.error === null) {
    lines.push(`No dead letters since the last retry-dead in ${paths.deadLetter}: nothing to queue again.`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`Dead letters read: ${summary.read} (${paths.deadLetter}).`);
  const already = summary.alreadyQueued > 0 ? ` (already queued: ${summary.alreadyQueued}, not added twice)` : '';
  if (summary.dryRun) {
    lines.push(
      `Dry run: ${plural(summary.queued, 'dead-lettered event')} would be queued again${already}; nothing was changed.`,
    );
  } else {
    lines.push(
      `Queued again: ${plural(summary.queued, 'event')}${already}${
        summary.queued + summary.alreadyQueued > 0
          ? `, waiting in ${paths.outbox}. Send them with ${upload}; council-cloud stores each event once, by its event_id, even one it already had.`
          : '.'
      }`,
    );
  }
  if (summary.repeated > 0)
    lines.push(`Dead-lettered more than once: ${summary.repeated} (each event is queued once).`);
  const notRetried = summary.notRetried.reduce((n, r) => n + r.count, 0);
  if (notRetried > 0) {
    lines.push(`Not retried: ${notRetried}`);
    for (const r of summary.notRetried) lines.push(`  ${r.count} ${r.why}`);
  }
  if (!summary.dryRun && summary.error === null)
    lines.push(`The next retry-dead starts after these (${summary.cursor}); the dead-letter file is kept as it is.`);
  return `${lines.join('\n')}\n`;
}
