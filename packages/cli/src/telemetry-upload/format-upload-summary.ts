import type { UploadSummary } from './upload-summary.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The end-of-run summary: sent, rejected, set aside, remaining, next retry. Counts and paths only, never event content. */
export function formatUploadSummary(summary: UploadSummary, deadLetterPath: string): string {
  const lines = [
    summary.dryRun
      ? `Dry run: ${plural(summary.sent, 'event')} in ${plural(summary.batches, 'batch').replace('batchs', 'batches')} would be sent; nothing was sent.`
      : `Sent ${plural(summary.sent, 'event')} in ${plural(summary.batches, 'batch').replace('batchs', 'batches')}${
          summary.alreadyHeld > 0
            ? `; ${summary.alreadyHeld} of them council-cloud already had from an earlier send and did not store twice`
            : ''
        }.`,
  ];
  if (!summary.dryRun)
    lines.push(
      `Rejected by council-cloud: ${summary.rejected}${summary.rejected > 0 ? ` (reasons in ${deadLetterPath})` : ''}.`,
    );
  if (summary.setAside > 0) {
    lines.push(
      `Set aside without sending: ${summary.setAside} (consent 0-1, unreadable lines or unknown schema versions; ${summary.dryRun ? 'they would be listed' : 'listed'} in ${deadLetterPath}).`,
    );
  }
  if (summary.reduced > 0)
    lines.push(`Sent with fewer fields than queued (LLM_COUNCIL_BIAS_CONSENT is lower now): ${summary.reduced}.`);
  lines.push(`Remaining in the outbox: ${summary.remaining ?? 'unknown (see the error below)'}.`);
  if (summary.incompleteTail)
    lines.push(
      'The last line of the outbox is incomplete (being written, or cut short by a crash); it was left for the next run.',
    );
  lines.push(
    `Next retry: ${summary.nextRetryAt ?? ((summary.remaining ?? 1) > 0 && summary.error !== null ? 'run again once the error reported below is fixed' : 'none needed')}.`,
  );
  return `${lines.join('\n')}\n`;
}
