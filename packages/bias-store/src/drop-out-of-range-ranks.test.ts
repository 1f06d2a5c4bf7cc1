import type { BiasObservation } from '@council/bias-audit';
import { observationsToColumns } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { columnsToObservations } from './columns-to-observations.js';
import { dropOutOfRangeRanks } from './drop-out-of-range-ranks.js';

/** Reviewer `r` of session `s` ranks candidate `c` at `rank` (shown at position `rank`, scored 5). */
function ranked([s, r, c]: [string, string, string], rank: number | null, minute = 0): BiasObservation {
  return {
    sessionId: s,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
    reviewer: r,
    candidate: c,
    position: rank ?? 0,
    responseLengthChars: 100,
    score: 5,
    rankPosition: rank,
    configVersion: null,
    queryCategory: null,
  };
}

/** The reviewer `r`'s ranking of candidates a, b, c… in session `s`, rank by rank. */
const ranking = ([s, r]: [string, string], ranks: (number | null)[], minute = 0): BiasObservation[] =>
  ranks.map((rank, i) => ranked([s, r, String.fromCharCode(97 + i)], rank, minute));

const kept = (observations: BiasObservation[]): ReturnType<typeof columnsToObservations> =>
  columnsToObservations(dropOutOfRangeRanks(observationsToColumns(observations)).columns);

describe('dropOutOfRangeRanks', () => {
  it('keeps a window whose ranks are all places in their rankings, the same columns object', () => {
    const columns = observationsToColumns([
      ...ranking(['s1', 'r1'], [2, 0, 1]),
      ...ranking(['s1', 'r2'], [0, null, 1]),
      ...ranking(['s2', 'r1'], [1, 0]),
    ]);
    const { columns: after, outOfRange } = dropOutOfRangeRanks(columns);
    expect(after).toBe(columns);
    expect(outOfRange).toEqual({ count: 0, first: [] });
  });

  it('drops the record whose rank is the count of ranked answers (4 ranked: 0–3), and only it', () => {
    // r1 ranked 4 answers in s1 with ranks 0, 1, 2, 4: 4 is no place among 4 (0-based, 0–3). r2's ranking is whole.
    const records = [...ranking(['s1', 'r1'], [0, 1, 2, 4]), ...ranking(['s1', 'r2'], [3, 2, 1, 0])];
    const { columns, outOfRange } = dropOutOfRangeRanks(observationsToColumns(records));
    expect(outOfRange.count).toBe(1);
    expect(outOfRange.first).toEqual([
      {
        sessionId: 's1',
        reviewerId: 'r1',
        modelId: 'd',
        rank: 4,
        detail: 'rank_position 4 but the reviewer ranked 4 answers in session s1: ranks are 0-based, 0–3',
      },
    ]);
    // The same as the window without that record (observationsToColumns orders them as given).
    expect(columnsToObservations(columns)).toEqual(
      columnsToObservations(
        observationsToColumns(records.filter((o) => !(o.reviewer === 'r1' && o.candidate === 'd'))),
      ),
    );
  });

  it('judges each reviewer by its own ranked records: unranked ones do not count, one ranked record is not judged', () => {
    // r1 ranked 2 of 3 (ranks 0 and 2): 2 is out of range of 2 ranked answers (0–1). r2 ranked one answer at 3: one
    // rank places nothing (a window by model keeps one record of each other reviewer), so it stays.
    const records = [...ranking(['s1', 'r1'], [0, null, 2]), ranked(['s1', 'r2', 'a'], 3)];
    const { columns, outOfRange } = dropOutOfRangeRanks(observationsToColumns(records));
    expect(outOfRange.first.map((o) => [o.reviewerId, o.modelId, o.rank])).toEqual([['r1', 'c', 2]]);
    expect(columns.length).toBe(3);
  });

  it('judges the ranks left again when a drop makes the ranking smaller, and says so', () => {
    // Ranks 0, 2, 5 of 3 ranked: 5 is out (0–2); the 2 left are 0 and 2, and 2 is out of 0–1; the last one, 0, stays.
    const { columns, outOfRange } = dropOutOfRangeRanks(observationsToColumns(ranking(['s1', 'r1'], [0, 2, 5])));
    expect(outOfRange.count).toBe(2);
    expect(outOfRange.first.map((o) => o.detail)).toEqual([
      'rank_position 5 but the reviewer ranked 3 answers in session s1: ranks are 0-based, 0–2',
      'rank_position 2 but the reviewer ranked 2 answers in session s1 once its out-of-range ranks are set aside: ranks are 0-based, 0–1',
    ]);
    expect(columnsToObservations(columns).map((o) => o.rankPosition)).toEqual([0]);
  });

  it('drops a session left without records and numbers the others again, in order', () => {
    // s2's only reviewer ranked 2 answers at 2 and 3: both out of range (0–1), so s2 is left empty.
    const records = [
      ...ranking(['s1', 'r1'], [1, 0], 0),
      ...ranking(['s2', 'r1'], [2, 3], 1),
      ...ranking(['s3', 'r1'], [0, 1], 2),
    ];
    const { columns, outOfRange } = dropOutOfRangeRanks(observationsToColumns(records));
    expect(outOfRange.count).toBe(2);
    expect(columns.sessionIds).toEqual(['s1', 's3']);
    expect(Array.from(columns.sessionStart)).toEqual([0, 2, 4]);
    expect(Array.from(columns.sessionTime)).toEqual([Date.UTC(2026, 0, 1, 0, 0), Date.UTC(2026, 0, 1, 0, 2)]);
    expect(kept(records)).toEqual(
      columnsToObservations(observationsToColumns(records.filter((o) => o.sessionId !== 's2'))),
    );
  });

  it('counts every out-of-range rank but keeps the first 20 for the skip report', () => {
    // 25 sessions, each with one reviewer ranking 2 answers at 0 and 2: 25 out-of-range records.
    const records = Array.from({ length: 25 }, (_, s) =>
      ranking([`s${String(s).padStart(2, '0')}`, 'r1'], [0, 2], s),
    ).flat();
    const { outOfRange } = dropOutOfRangeRanks(observationsToColumns(records));
    expect(outOfRange.count).toBe(25);
    expect(outOfRange.first.map((o) => o.sessionId)).toEqual(
      Array.from({ length: 20 }, (_, s) => `s${String(s).padStart(2, '0')}`),
    );
  });
});
