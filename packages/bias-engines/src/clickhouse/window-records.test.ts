import { describe, expect, it } from 'vitest';
import { noRank } from '@council/bias-store';
import { RowBinaryCursor } from './row-binary-stream.js';
import { WindowRecords } from './window-records.js';

/** One record of a records row, names spelt out (null: none). */
interface Rec {
  reviewer: string;
  candidate: string;
  position: number;
  length: number;
  score: number;
  rank: number;
  time: number;
  config: string | null;
  category: string | null;
  pido: 0 | 1;
}

const varUInt = (value: number): number[] => {
  const bytes: number[] = [];
  for (let v = value; ; v = Math.floor(v / 128)) {
    if (v < 128) return [...bytes, v];
    bytes.push((v % 128) | 0x80);
  }
};
const string = (text: string): Buffer =>
  Buffer.concat([Buffer.from(varUInt(Buffer.byteLength(text))), Buffer.from(text)]);
const strings = (list: string[]): Buffer => Buffer.concat([Buffer.from(varUInt(list.length)), ...list.map(string)]);
function fixed(values: number[], size: 1 | 2 | 4 | 8): Buffer {
  const out = Buffer.alloc(values.length * size);
  values.forEach((v, i) =>
    size === 1
      ? out.writeUInt8(v, i)
      : size === 2
        ? out.writeUInt16LE(v, 2 * i)
        : size === 4
          ? out.writeUInt32LE(v, 4 * i)
          : out.writeDoubleLE(v, 8 * i),
  );
  return Buffer.concat([Buffer.from(varUInt(values.length)), out]);
}
/** A row's own names by first meeting, and each value's index among them (1-based, 0 for null, when `nullable`). */
function local(values: (string | null)[], nullable: boolean): { names: string[]; index: number[] } {
  const ids = new Map<string, number>();
  for (const v of values) if (v !== null && !ids.has(v)) ids.set(v, ids.size);
  return { names: [...ids.keys()], index: values.map((v) => (v === null ? 0 : ids.get(v)! + (nullable ? 1 : 0))) };
}

/** A row of `clickhouseSessionRecordsColumns`, encoded from RowBinary's definition. */
function sessionRow(session: string, records: Rec[]): RowBinaryCursor {
  const models = local([...records.map((r) => r.reviewer), ...records.map((r) => r.candidate)], false);
  const configs = local(
    records.map((r) => r.config),
    true,
  );
  const categories = local(
    records.map((r) => r.category),
    true,
  );
  const cursor = new RowBinaryCursor();
  cursor.reset(
    Buffer.concat([
      string(session),
      strings(models.names),
      fixed(models.index.slice(0, records.length), 2),
      fixed(models.index.slice(records.length), 2),
      fixed(
        records.map((r) => r.position),
        4,
      ),
      fixed(
        records.map((r) => r.length),
        4,
      ),
      fixed(
        records.map((r) => r.score),
        8,
      ),
      fixed(
        records.map((r) => r.rank),
        4,
      ),
      fixed(
        records.map((r) => r.time),
        8,
      ),
      strings(configs.names),
      fixed(configs.index, 2),
      strings(categories.names),
      fixed(categories.index, 2),
      fixed(
        records.map((r) => r.pido),
        1,
      ),
    ]),
  );
  return cursor;
}

const rec = (fields: Partial<Rec> & Pick<Rec, 'reviewer' | 'candidate'>): Rec => ({
  position: 0,
  length: 100,
  score: 7,
  rank: noRank,
  time: 1000,
  config: null,
  category: null,
  pido: 1,
  ...fields,
});

describe('WindowRecords', () => {
  it('places sessions that arrive in any order, drops repeats as the reader does, and sorts the names it keeps as JS does', () => {
    const window = new WindowRecords({
      sessionIds: ['s1', 's2'],
      sessionTime: Float64Array.from([1000, 2000]),
      sessionRecords: [2, 3],
    });
    // s2 first; its third record repeats its first (reviewer b, member \uE000) with another config: a conflict, dropped.
    window.addSession(
      sessionRow('s2', [
        rec({ reviewer: 'b', candidate: '\uE000', score: Number.NaN, rank: 1, time: 2000, config: '2', category: 'x' }),
        rec({ reviewer: '\u{1F600}', candidate: 'b', position: 1, time: 2001, config: '1' }),
        rec({ reviewer: 'b', candidate: '\uE000', time: 2002, config: 'only-in-a-conflict' }),
      ]),
    );
    window.addSession(
      sessionRow('s1', [
        rec({ reviewer: 'a', candidate: 'b', score: -0, pido: 0 }),
        rec({ reviewer: 'a', candidate: 'b', score: -0, pido: 0 }),
      ]),
    );
    const { columns, repeated } = window.finish();
    expect(repeated).toEqual({ duplicates: 1, conflicts: 1, conflictSessions: ['s2'] });
    // UTF-16 order: U+1F600 is a surrogate pair (0xD83D…), before U+E000.
    expect(columns.models).toEqual(['a', 'b', '\u{1F600}', '\uE000']);
    expect(columns.configVersions).toEqual(['1', '2']);
    expect(columns.queryCategories).toEqual(['x']);
    expect(columns.length).toBe(3);
    expect([...columns.sessionStart]).toEqual([0, 1, 3]);
    expect([...columns.session]).toEqual([0, 1, 1]);
    expect([...columns.reviewer]).toEqual([0, 1, 2]);
    expect([...columns.candidate]).toEqual([1, 3, 1]);
    expect([...columns.position]).toEqual([0, 0, 1]);
    expect([...columns.score]).toEqual([-0, Number.NaN, 7]);
    expect(Object.is(columns.score[0], -0)).toBe(true);
    expect([...columns.rankPosition]).toEqual([noRank, 1, noRank]);
    expect([...columns.time]).toEqual([1000, 2000, 2001]);
    expect([...columns.configVersion]).toEqual([0, 2, 1]);
    expect([...columns.queryCategory]).toEqual([0, 1, 0]);
    expect([...columns.positionIsDisplayOrder]).toEqual([0, 1, 1]);
  });

  it('says the table changed when a session comes with other records than the window counted, twice, or not at all', () => {
    const window = (): WindowRecords =>
      new WindowRecords({ sessionIds: ['s1', 's2'], sessionTime: Float64Array.from([1, 2]), sessionRecords: [1, 1] });
    const one = (session: string): RowBinaryCursor => sessionRow(session, [rec({ reviewer: 'a', candidate: 'b' })]);
    expect(() =>
      window().addSession(
        sessionRow('s1', [rec({ reviewer: 'a', candidate: 'b' }), rec({ reviewer: 'b', candidate: 'a' })]),
      ),
    ).toThrow(
      'The ClickHouse table changed while the report read it (session "s1" had 1 records in the window, then 2): was a load running? Run the report again once it has finished.',
    );
    expect(() => window().addSession(one('s3'))).toThrow('(session "s3" was not in the window)');
    const twice = window();
    twice.addSession(one('s1'));
    expect(() => twice.addSession(one('s1'))).toThrow('(session "s1" came twice)');
    const short = window();
    short.addSession(one('s2'));
    expect(() => short.finish()).toThrow('(session "s1" had records in the window, then none)');
  });

  it('refuses more than 65,535 models, as the reader does', () => {
    const names = Array.from({ length: 0x10000 }, (_, i) => `m${i}`);
    const records = names.map((name, i) => rec({ reviewer: name, candidate: names[(i + 1) % names.length]! }));
    const fits = new WindowRecords({
      sessionIds: ['s'],
      sessionTime: Float64Array.from([1]),
      sessionRecords: [0xffff],
    });
    fits.addSession(
      sessionRow('s', records.slice(0, 0xffff - 1).concat(rec({ reviewer: names[0xfffe]!, candidate: names[0]! }))),
    );
    expect(fits.finish().columns.models).toHaveLength(0xffff);
    const over = new WindowRecords({
      sessionIds: ['s'],
      sessionTime: Float64Array.from([1]),
      sessionRecords: [0x10000],
    });
    expect(() => over.addSession(sessionRow('s', records))).toThrow(
      'The window holds more than 65535 distinct models; a report over them cannot be built. Narrow the window.',
    );
  });
});
