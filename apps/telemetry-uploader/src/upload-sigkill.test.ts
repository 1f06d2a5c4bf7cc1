import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestAnswer, IngestTestServer } from '@council/cli/test';
import { appendOutboxEvents, sampleEvent, startIngestTestServer, tempHome } from '@council/cli/test';

const bundle = fileURLToPath(new URL('../dist/council-telemetry.js', import.meta.url));
let server: IngestTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function run(
  env: Record<string, string>,
  onSpawn: (child: ChildProcess) => void,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, 'upload', '--batch-size', '10'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    onSpawn(child);
  });
}

describe('council-telemetry killed with SIGKILL mid-batch', () => {
  it('loses no event over 10 kills and a final run to completion; stores each once, recognising the batches sent again', async () => {
    const { home, paths } = tempHome();
    const ids = Array.from({ length: 300 }, (_, i) => sampleEvent(i + 1).event_id as string);
    appendOutboxEvents(
      paths.outbox,
      ids.map((_, i) => sampleEvent(i + 1)),
    );

    // Three ways to die, in turn: while the request waits for an answer (nothing committed); after
    // the server committed but before it answered; and just after a 2xx, while the uploader is
    // dead-lettering and replacing its cursor (the batch may then be sent again: at most its 10 events).
    type Death = 'in-flight' | 'after-commit' | 'after-answer';
    const deaths: Death[] = ['in-flight', 'after-commit', 'after-answer'];
    let child: ChildProcess | undefined;
    let killAt = -1; // index of the request during which the uploader is killed
    let death: Death = 'in-flight';
    let answeredThenKilled = 0;
    let dying = false; // a kill is scheduled: answer nothing more, so only the answered batch can repeat
    server = await startIngestTestServer({
      answer: (request, index): IngestAnswer => {
        if (dying) return { kind: 'hang' };
        if (index !== killAt) return { kind: 'ok' };
        if (death === 'after-answer') {
          answeredThenKilled += request.eventIds.length;
          dying = true;
          setTimeout(() => child!.kill('SIGKILL'), 2);
          return { kind: 'ok' };
        }
        child!.kill('SIGKILL');
        return death === 'after-commit' ? { kind: 'commit-then-fail' } : { kind: 'hang' };
      },
    });
    const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: server.url, LLM_COUNCIL_CLOUD_TOKEN: 'token' };

    for (let kill = 0; kill < 10; kill++) {
      killAt = server.requests.length + 1 + (kill % 3); // the 2nd to 4th request of this run
      death = deaths[kill % 3]!;
      const result = await run(env, (c) => (child = c));
      dying = false;
      expect(result.signal, result.stderr).toBe('SIGKILL');
      // the killed uploader left its lock behind; the next run must break it (dead pid)
      expect(existsSync(join(home, 'telemetry', 'upload.lock'))).toBe(true);
      // the cursor is never torn: absent or a whole cursor
      if (existsSync(paths.cursor))
        expect(JSON.parse(readFileSync(paths.cursor, 'utf8'))).toMatchObject({
          segment: expect.any(Number) as number,
          offset: expect.any(Number) as number,
        });
    }
    killAt = -1;
    const final = await run(env, (c) => (child = c));
    expect(final.code, final.stderr).toBe(0);

    const distinct = new Set(server.committed);
    expect(ids.filter((id) => !distinct.has(id))).toEqual([]);
    // Each event_id is its idempotency key: a batch sent again after a kill is recognised, never stored twice.
    expect(server.committed).toHaveLength(300);
    expect(server.committedWithoutAnswer).toBe(3 * 10); // kills 1, 4, 7: after committing a 10-event batch
    // Sent again: every batch committed without an answer, and at most the batches answered just before a kill.
    expect(server.duplicates.length).toBeGreaterThanOrEqual(server.committedWithoutAnswer);
    expect(server.duplicates.length).toBeLessThanOrEqual(server.committedWithoutAnswer + answeredThenKilled);
    expect(existsSync(join(home, 'telemetry', 'upload.lock'))).toBe(false);
  }, 60_000);
});
