import { describe, expect, it } from 'vitest';
import {
  allocateRecordArrays,
  allocateReportArrays,
  countColumnHolding,
  exactInFloat32,
  idWidth,
  permuteRecordArrays,
  recordBytes,
  scoreColumnHolding,
} from './bias-columns-builder.js';

describe('column widths', () => {
  it('allocates the widest columns unless told, and the narrow ones a reader asks for', () => {
    const wide = allocateReportArrays(3);
    expect(wide.reviewer).toBeInstanceOf(Uint16Array);
    expect(wide.position).toBeInstanceOf(Uint32Array);
    expect(wide.score).toBeInstanceOf(Float64Array);
    const narrow = allocateRecordArrays(3, { ids: 8, counts: 16, score: 32 });
    expect(narrow.reviewer).toBeInstanceOf(Uint8Array);
    expect(narrow.candidate).toBeInstanceOf(Uint8Array);
    expect(narrow.configVersion).toBeInstanceOf(Uint8Array);
    expect(narrow.position).toBeInstanceOf(Uint16Array);
    expect(narrow.responseLengthChars).toBeInstanceOf(Uint16Array);
    expect(narrow.score).toBeInstanceOf(Float32Array);
    // Never narrowed: the rank keeps noRank (0xFFFFFFFF), the other readers' four columns their types.
    expect(narrow.rankPosition).toBeInstanceOf(Uint32Array);
    expect(narrow.session).toBeInstanceOf(Uint32Array);
    expect(narrow.queryCategory).toBeInstanceOf(Uint16Array);
    expect(narrow.time).toBeInstanceOf(Float64Array);
  });

  it('counts the bytes of a record: 26 and 41 at the widest, 13 and 28 at the narrowest', () => {
    // reviewer, candidate, configVersion 2 + 2 + 2; position, length 4 + 4; score 8; rank 4 = 26; plus session 4,
    // time 8, query category 2, display-order flag 1 = 41. Narrowest: 1 + 1 + 1, 1 + 1, 4, 4 = 13, and 28.
    expect(recordBytes({}, true)).toBe(26);
    expect(recordBytes({}, false)).toBe(41);
    expect(recordBytes({ ids: 8, counts: 8, score: 32 }, true)).toBe(13);
    expect(recordBytes({ ids: 8, counts: 8, score: 32 }, false)).toBe(28);
  });

  it('takes 8-bit ids for up to 256 names (indices 0–255), 16-bit beyond', () => {
    expect(idWidth(1)).toBe(8);
    expect(idWidth(256)).toBe(8);
    expect(idWidth(257)).toBe(16);
  });

  it('widens a count column only for a value it cannot hold, keeping the values written', () => {
    const bytes = Uint8Array.of(0, 7, 255);
    expect(countColumnHolding(bytes, 255)).toBe(bytes);
    const shorts = countColumnHolding(bytes, 256);
    expect(shorts).toBeInstanceOf(Uint16Array);
    expect([...shorts]).toEqual([0, 7, 255]);
    expect(countColumnHolding(shorts, 65_535)).toBe(shorts);
    const words = countColumnHolding(shorts, 65_536);
    expect(words).toBeInstanceOf(Uint32Array);
    expect([...words]).toEqual([0, 7, 255]);
    // A wide column is never narrowed.
    expect(countColumnHolding(words, 3)).toBe(words);
  });

  it('keeps 32-bit scores only while every score is a 32-bit float exactly', () => {
    expect(exactInFloat32(7)).toBe(true);
    expect(exactInFloat32(7.5)).toBe(true);
    expect(exactInFloat32(7.25)).toBe(true);
    expect(exactInFloat32(Number.NaN)).toBe(true); // unscored
    expect(exactInFloat32(7.3)).toBe(false); // 7.300000190734863 in 32 bits
    expect(exactInFloat32(1e-50)).toBe(false); // 0 in 32 bits
    const floats = Float32Array.of(4, Number.NaN, 7.5);
    expect(scoreColumnHolding(floats, true)).toBe(floats);
    const doubles = scoreColumnHolding(floats, false);
    expect(doubles).toBeInstanceOf(Float64Array);
    expect([...doubles]).toEqual([4, Number.NaN, 7.5]);
    expect(scoreColumnHolding(doubles, false)).toBe(doubles);
  });

  it('permutes narrow columns as it permutes wide ones', () => {
    const arrays = allocateRecordArrays(3, { ids: 8, counts: 8, score: 32 });
    arrays.reviewer.set([1, 2, 3]);
    arrays.position.set([10, 20, 30]);
    arrays.responseLengthChars.set([100, 200, 250]);
    arrays.score.set([1.5, Number.NaN, 9.25]);
    arrays.rankPosition.set([0, 0xffff_ffff, 2]);
    arrays.time.set([1000, 2000, 3000]);
    // Record 0 to place 1, record 1 left out, record 2 to place 0.
    const out = permuteRecordArrays({ arrays, target: Int32Array.of(1, -1, 0), length: 2, records: 3 });
    expect(out.score).toBeInstanceOf(Float32Array);
    expect([...out.reviewer]).toEqual([3, 1]);
    expect([...out.position]).toEqual([30, 10]);
    expect([...out.responseLengthChars]).toEqual([250, 100]);
    expect([...out.score]).toEqual([9.25, 1.5]);
    expect([...out.rankPosition]).toEqual([2, 0]);
    expect([...out.time]).toEqual([3000, 1000]);
  });
});
