import { describe, expect, it } from 'vitest';
import { fitScoreModel } from '../fit-score-model.js';
import { observationsToColumns } from '../observations-to-columns.js';
import { summarizeBiasSessions } from '../summarize-bias-sessions.js';
import { ColumnScoreSums } from './column-score-sums.js';
import { layoutOf } from './score-model-design.js';
import { sourceFromColumns, sourceFromSummaries } from './score-session-stats.js';
import { simulateCouncils } from './simulate-councils.js';
import { sumNormalEquations } from './sum-normal-equations.js';

// A 16-member council in which every member scores every answer, its own included: 256 records a session.
const large = observationsToColumns(simulateCouncils({ sessions: 1100, models: 16, reviewers: 16, seed: 7 }));

describe('ColumnScoreSums', () => {
  it('plans chunks of at most 16 MB of room, each session bounded by its records', () => {
    const layout = layoutOf(large);
    // 16 reviewer columns, 16 positions, 16 self columns.
    expect(layout.k).toBe(48);
    // A session of 256 records: m = min(48, 3 · 256) = 48 columns, min(16, 256) = 16 answers, 256 pair records, in
    // bytes 24 (its starts and y'y) + 20·48 (columns, records, X'y) + 8·48² (X'X) + 32·16 (answers) + 8·16·48 (answer
    // rows) + 28·256 (pairs) = 33,240; a chunk's descriptor and closing starts take 108, so (16 MiB − 108)/33,240
    // rounds down to 504 sessions a chunk.
    const { chunks } = new ColumnScoreSums(large, layout);
    expect(chunks.map(({ from, to }) => [from, to])).toEqual([
      [0, 504],
      [504, 1008],
      [1008, 1100],
    ]);
    expect(chunks[0]!.records).toBe(504 * 256);
  });

  it('gives the fit of the summaries over chunks it forms afresh on each pass (36 MB of room: not kept)', () => {
    expect(fitScoreModel(large)).toEqual(fitScoreModel(summarizeBiasSessions(large)));
  });

  it('keeps its sums right when another source takes the kernels in between passes', () => {
    const small = observationsToColumns(simulateCouncils({ sessions: 40, models: 4, reviewers: 4, seed: 3 }));
    const columns = sourceFromColumns(small);
    const summaries = sourceFromSummaries(summarizeBiasSessions(small));
    const first = sumNormalEquations(columns);
    const other = sumNormalEquations(sourceFromColumns(large));
    expect(sumNormalEquations(summaries)).toEqual(first);
    expect(sumNormalEquations(columns)).toEqual(first);
    expect(other.xtx.length).toBe(48 * 48);
  });
});
