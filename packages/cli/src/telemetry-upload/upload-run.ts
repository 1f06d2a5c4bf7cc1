import type { DeadLetterEntry, JsonlCursor, JsonlEntry, TelemetryOutbox } from '@council/bias-store';
import type { TelemetryEvent } from '@council/core';
import type { UploadSettings } from './upload-settings.js';
import type { UploadSummary } from './upload-summary.js';

/** One outbox line on its way through a run. */
export interface OutboxItem {
  entry: JsonlEntry<Record<string, unknown>>;
  /** Set for items that go to the dead-letter file when committed. */
  deadLetter?: Omit<DeadLetterEntry, 'dead_lettered_at' | 'outbox_segment' | 'outbox_line'>;
  event?: TelemetryEvent;
}

/** What the steps of one upload run share. */
export interface UploadRun {
  settings: UploadSettings;
  outbox: TelemetryOutbox;
  summary: UploadSummary;
  /** Where the next run starts: the committed cursor (in a dry run, how far this run has read). */
  position: JsonlCursor;
}
