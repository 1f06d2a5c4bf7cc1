import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestAnswer, IngestTestServer } from './testing/ingest-test-server.js';
import { startIngestTestServer } from './testing/ingest-test-server.js';
import { appendOutboxEvents, sampleEvent } from './testing/sample-events.js';
import { tempHome } from './testing/temp-home.js';

const bundle = fileURLToPath(new URL('../dist/council-telemetry.js', import.meta.url));
let server: IngestTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function run(env: Record<string, string>, onSpawn: (child: ChildProcess) => void): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, 'upload', '--batch-size', '10'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    onSpawn(child);
  });
}

describe('council-telemetry killed with SIGKILL mid-batch', () => {
  it('loses no event over 10 kills and a final run to completion; duplicates only for batches committed before the kill', async () => {
    const { home, paths } = tempHome();
    const ids = Array.from({ length: 300 }, (_, i) => sampleEvent(i + 1).event_id as string);
    appendOutboxEvents(paths.outbox, ids.map((_, i) => sampleEvent(i + 1)));

    let child: ChildProcess | undefined;
    let killAt = -1; // index of the request during which the uploader is killed
    let commitBeforeKill = false;
    server = await startIngestTestServer({
      answer: (_request, index): IngestAnswer => {
        if (index !== killAt) return { kind: 'ok' };
        child!.kill('SIGKILL'); // mid-batch: the request is read, the answer never comes
        return commitBeforeKill ? { kind: 'commit-then-fail' } : { kind: 'hang' };
      },
    });
    const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_CLOUD_URL: server.url, LLM_COUNCIL_CLOUD_TOKEN: 'token' };

    for (let kill = 0; kill < 10; kill++) {
      killAt = server.requests.length + 1 + (kill % 3); // the 2nd to 4th request of this run
      commitBeforeKill = kill % 2 === 1;
      const result = await run(env, (c) => (child = c));
      expect(result.signal, result.stderr).toBe('SIGKILL');
      // the killed uploader left its lock behind; the next run must break it (dead pid)
      expect(existsSync(join(home, 'telemetry', 'upload.lock'))).toBe(true);
    }
    killAt = -1;
    const final = await run(env, (c) => (child = c));
    expect(final.code, final.stderr).toBe(0);

    const distinct = new Set(server.committed);
    expect(ids.filter((id) => !distinct.has(id))).toEqual([]);
    expect(server.committed.length - distinct.size).toBe(server.committedWithoutAnswer);
    expect(server.committedWithoutAnswer).toBe(5 * 10); // five kills after committing a 10-event batch
    expect(existsSync(join(home, 'telemetry', 'upload.lock'))).toBe(false);
  }, 60_000);
});
