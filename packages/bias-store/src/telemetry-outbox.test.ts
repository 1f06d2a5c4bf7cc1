import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { BiasStoreError } from './bias-store-error.js';
import type { DeadLetterEntry } from './dead-letter-entry.js';
import { startCursor } from './jsonl-cursor.js';
import { createTelemetryOutboxStore, openTelemetryOutbox } from './telemetry-outbox.js';

const tempDir = useTempDirs();

/** An outbox under a fresh home holding `lines` exactly as given. */
function outboxWith(lines: readonly string[]) {
  const dir = join(tempDir(), 'telemetry');
  mkdirSync(dir, { recursive: true });
  const paths = {
    outbox: join(dir, 'outbox.jsonl'),
    cursor: join(dir, 'sent.cursor'),
    deadLetter: join(dir, 'dead-letter.jsonl'),
  };
  writeFileSync(paths.outbox, lines.map((line) => `${line}\n`).join(''));
  return { paths, outbox: openTelemetryOutbox(paths) };
}

const letter = (line: number): DeadLetterEntry => ({
  dead_lettered_at: '2026-11-22T00:00:00.000Z',
  refused_by: 'uploader',
  reason: 'consent_level 1 allows no transmission',
  event_id: null,
  outbox_segment: 1,
  outbox_line: line,
  event: null,
});

describe('openTelemetryOutbox', () => {
  it('starts at the beginning and hands every line over as a plain object, whatever it claims', async () => {
    // the second line breaks every event rule (no id, consent 9): the uploader must see it, not have it skipped
    const { outbox } = outboxWith([
      '{"schema_version":"1.1.0","event_id":"a"}',
      '{"consent_level":9}',
      '{"schema_version":"2.0.0","event_id":"b"}',
    ]);
    expect(await outbox.readCursor()).toEqual(startCursor);
    const entries = [];
    for await (const entry of outbox.scan(startCursor)) entries.push(entry);
    expect(entries.map((e) => (e.kind === 'item' ? e.item : e.reason))).toEqual([
      { schema_version: '1.1.0', event_id: 'a' },
      { consent_level: 9 },
      'unsupported_version',
    ]);
    expect(await outbox.countPending(startCursor)).toBe(2);
  });

  it('commit writes the dead letters, then the cursor; reading resumes from it', async () => {
    const { paths, outbox } = outboxWith(['{"n":1}', '{"n":2}', '{"n":3}']);
    // each line is 7 bytes plus its newline: past the second line is byte 16, line 2 of segment 1 (the active file)
    await outbox.commit([letter(2)], { segment: 1, offset: 16, line: 2 });
    expect(JSON.parse(readFileSync(paths.cursor, 'utf8'))).toEqual({ segment: 1, offset: 16, line: 2 });
    expect(readFileSync(paths.deadLetter, 'utf8')).toBe(`${JSON.stringify(letter(2))}\n`);
    const cursor = await outbox.readCursor();
    expect(cursor).toEqual({ segment: 1, offset: 16, line: 2 });
    expect(await outbox.countPending(cursor)).toBe(1);
  });

  it('a commit without dead letters creates no dead-letter file', async () => {
    const { paths, outbox } = outboxWith(['{"n":1}']);
    await outbox.commit([], { segment: 1, offset: 8, line: 1 });
    expect(existsSync(paths.deadLetter)).toBe(false);
    expect(await outbox.cursorOverrun(await outbox.readCursor())).toBeNull();
  });

  it('says where a cursor points past the end of a replaced or shortened outbox', async () => {
    const { paths, outbox } = outboxWith(['{"n":1}', '{"n":2}']);
    expect(await outbox.cursorOverrun({ segment: 1, offset: 16, line: 2 })).toBeNull(); // exactly at the end
    expect(await outbox.cursorOverrun({ segment: 1, offset: 100, line: 9 })).toBe(
      `byte 100 of ${paths.outbox}, which holds 16`,
    );
    expect(await outbox.cursorOverrun({ segment: 5, offset: 3, line: 1 })).toBe('segment 5, past the last one (1)');
    expect(await outbox.cursorOverrun(startCursor)).toBeNull();
  });

  it('an empty home has nothing pending and no cursor yet', async () => {
    const dir = tempDir();
    const outbox = openTelemetryOutbox({
      outbox: join(dir, 'o.jsonl'),
      cursor: join(dir, 'c'),
      deadLetter: join(dir, 'd.jsonl'),
    });
    expect(await outbox.readCursor()).toEqual(startCursor);
    expect(await outbox.countPending(startCursor)).toBe(0);
    expect(await outbox.cursorOverrun({ segment: 3, offset: 10, line: 1 })).toBeNull(); // nothing stored: nothing to skip
  });

  it('a foreign cursor file is an INVALID_CURSOR error naming the file', async () => {
    const { paths, outbox } = outboxWith(['{"n":1}']);
    writeFileSync(paths.cursor, 'not a cursor');
    const error = await outbox.readCursor().catch((e: unknown) => e);
    expect(BiasStoreError.isInstance(error) && error.code).toBe('INVALID_CURSOR');
    expect((error as Error).message).toContain('sent.cursor');
  });
});

describe('createTelemetryOutboxStore', () => {
  it('reads with the schema it is given and skips lines of another major schema_version', async () => {
    const { paths } = outboxWith([
      '{"schema_version":"1.0.0","n":1}',
      '{"schema_version":"2.0.0","n":2}',
      '{"schema_version":"1.3.0","n":"three"}',
    ]);
    const store = createTelemetryOutboxStore(paths.outbox, z.object({ schema_version: z.string(), n: z.number() }));
    const entries = [];
    for await (const entry of store.scan()) entries.push(entry.kind === 'item' ? entry.item.n : entry.reason);
    expect(entries).toEqual([1, 'unsupported_version', 'invalid_record']);
  });
});
