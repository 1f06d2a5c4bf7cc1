import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { syntheticObservations } from './__fixtures__/synthetic-sessions.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import type { ConsentLevel } from './consent-level.js';
import { councilPaths } from './council-paths.js';
import { createBiasStore } from './create-bias-store.js';
import { writeCursorFile } from './cursor-file.js';
import { recordsFromObservations } from './records-from-observations.js';

const tempDir = useTempDirs();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
  );
}

/** Every byte of every file under `dir` (decompressed too, for .gz), searched for the canary and each 16-character piece of it. */
function leaks(dir: string, canary: string): string[] {
  const pieces = new Set<string>();
  for (let i = 0; i + 16 <= canary.length; i++) pieces.add(canary.slice(i, i + 16));
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const raw = readFileSync(file);
    const texts = [raw.toString('utf8'), raw.toString('latin1')];
    if (file.endsWith('.gz')) texts.push(gunzipSync(raw).toString('utf8'));
    for (const text of texts) for (const piece of pieces) if (text.includes(piece)) found.push(`${file}: ${piece}`);
  }
  return found;
}

describe('the raw query never reaches the disk', () => {
  const canary = `Write a Python function that sorts CANARY-${randomUUID()}-zebra-quux-${randomUUID()} by date, and explain why it works`;

  it('the scanner finds a planted leak (so its silence below means something)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'leak.jsonl'), `{"q":"${canary.slice(40, 60)}"}\n`);
    expect(leaks(dir, canary)).not.toEqual([]);
  });

  it('at every consent level, through config, records, appends, segments, compaction and cursors', async () => {
    for (const consent of [0, 1, 2, 3, 4]) {
      const home = tempDir();
      // The settings the CLI resolves for this home (LLM_COUNCIL_BIAS_PERSISTENCE=true, this consent, a secret).
      const config = {
        storePath: councilPaths(home).biasMetrics,
        consent: consent as ConsentLevel,
        hashSecret: 'a-long-test-secret-of-my-own',
      };
      const store = createBiasStore({ path: config.storePath, segmentBytes: 4096 });
      const records = recordsFromObservations(syntheticObservations({ sessions: 5, seed: consent + 1 }), {
        consent: config.consent,
        hashSecret: config.hashSecret,
        query: canary,
      });
      for (let i = 0; i < records.length; i += 20) await store.append(records.slice(i, i + 20));
      // Errors along the way must not carry it either.
      const messages: string[] = [];
      try {
        recordsFromObservations([{ ...syntheticObservations({ sessions: 1 })[0]!, position: -1 }], {
          consent: 1,
          hashSecret: null,
          query: canary,
        });
      } catch (error) {
        messages.push((error as Error).message);
      }
      expect(messages.join('\n')).not.toContain('CANARY');

      if (consent === 0) {
        expect(records).toEqual([]);
        expect(filesUnder(home)).toEqual([]); // OFF: nothing is written at all
        continue;
      }
      await store.rotate();
      await store.compact({ minAgeMs: 0 });
      await writeCursorFile(join(home, 'telemetry', 'sent.cursor'), { segment: 1, offset: 0, line: 0 });
      const read = await store.read();
      expect(read.items).toHaveLength(100);
      expect(read.items.every((r) => r.consentLevel === consent)).toBe(true);
      expect(
        read.items.every((r) => (consent === 4 ? /^[0-9a-f]{16}$/.test(r.queryHash ?? '') : r.queryHash === null)),
      ).toBe(true);
      expect(read.items[0]!.queryMetadata).toEqual({ category: 'coding', tokenCountBucket: '0-100', language: 'en' });
      expect(JSON.stringify(read)).not.toContain('CANARY');

      const files = filesUnder(home);
      expect(files.some((f) => f.endsWith('.jsonl.gz'))).toBe(true);
      for (const file of files) expect(statSync(file).mode & 0o777, file).toBe(0o600);
      expect(statSync(join(home, 'telemetry')).mode & 0o777).toBe(0o700);
      expect(leaks(home, canary)).toEqual([]);
    }
  });
});
