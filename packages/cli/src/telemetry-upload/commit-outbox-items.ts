import type { DeadLetterEntry } from '@council/bias-store';
import type { OutboxItem, UploadRun } from './upload-run.js';

/**
 * Dead-letters the items' refusals, then moves the cursor past the last one (in that order: a crash
 * between them repeats a dead-letter line, never loses one). A dry run commits nothing.
 */
export async function commitOutboxItems(run: UploadRun, items: readonly OutboxItem[]): Promise<void> {
  const last = items.at(-1);
  if (last === undefined || run.settings.dryRun) return;
  const at = new Date(run.settings.now()).toISOString();
  const letters: DeadLetterEntry[] = items
    .filter((item) => item.deadLetter !== undefined)
    .map((item) => ({
      dead_lettered_at: at,
      outbox_segment: item.entry.next.segment,
      outbox_line: item.entry.line,
      ...item.deadLetter!,
    }));
  await run.outbox.commit(letters, last.entry.next);
  run.position = last.entry.next;
  await run.settings.onCommit?.();
}
