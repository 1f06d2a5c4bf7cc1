import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TelemetryOutboxPaths } from '@council/bias-store';

/** A fresh `$LLM_COUNCIL_HOME` in the temp directory and its telemetry paths. */
export function tempHome(): { home: string; paths: TelemetryOutboxPaths } {
  const home = mkdtempSync(join(tmpdir(), 'council-telemetry-'));
  const dir = join(home, 'telemetry');
  return {
    home,
    paths: {
      outbox: join(dir, 'outbox.jsonl'),
      cursor: join(dir, 'sent.cursor'),
      deadLetter: join(dir, 'dead-letter.jsonl'),
    },
  };
}
