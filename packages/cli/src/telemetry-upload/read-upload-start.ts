import type { JsonlCursor, TelemetryOutbox } from '@council/bias-store';
import { TelemetryUploadError } from './telemetry-upload-error.js';

/** The saved cursor, checked against the outbox: one that no longer fits it (`INVALID_CURSOR`) would skip events, so the run must not start. */
export async function readUploadStart(outbox: TelemetryOutbox): Promise<JsonlCursor> {
  const cursor = await outbox.readCursor();
  const overrun = await outbox.cursorOverrun(cursor);
  if (overrun !== null) {
    const file = outbox.paths.cursor;
    throw new TelemetryUploadError({
      code: 'INVALID_CURSOR',
      message: `${file} points at ${overrun}: the outbox was replaced or cut short since the last upload, so the cursor no longer fits it. Nothing was sent. To send every event now in the outbox, delete ${file} and run again.`,
    });
  }
  return cursor;
}
