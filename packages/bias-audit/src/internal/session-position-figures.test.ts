import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import { BiasAuditError } from '../bias-audit-error.js';
import type { BiasObservation } from '../bias-observation.js';
import { observationsToColumns } from '../observations-to-columns.js';
import { summarizeBiasSessions } from '../summarize-bias-sessions.js';

/** Reviewer `r` ranks candidates a, b, c… (shown in that order) at `ranks` in session s1, without scores. */
const ranking = (r: string, ranks: number[]): BiasObservation[] =>
  ranks.map((rank, i) => ({
    sessionId: 's1',
    timestamp: '2026-01-01T00:00:00Z',
    reviewer: r,
    candidate: String.fromCharCode(97 + i),
    position: i,
    responseLengthChars: 100,
    score: null,
    rankPosition: rank,
    configVersion: null,
    queryCategory: null,
  }));

describe('a rank that is no place in its reviewer ranking', () => {
  // r1 ranked 3 answers at 0, 1 and 3: ranks are places 0–2, so 3 is out of range. The store's readers drop such a
  // record (bias-store's dropOutOfRangeRanks); given to the statistics directly it is the caller's error, not clamped.
  const records = [...ranking('r1', [0, 1, 3]), ...ranking('r2', [2, 1, 0])];
  const window = { now: new Date('2026-01-02T00:00:00Z') };

  it('is an INVALID_INPUT error naming the session, the reviewer, the rank and the places allowed', () => {
    const expected =
      'Session s1: reviewer r1 has rankPosition 3 but ranked 3 answers in the session: ranks are 0-based, 0–2.';
    for (const run of [
      () => aggregateBiasAudit(records, { window }),
      () => aggregateBiasAudit(observationsToColumns(records), { window }),
      () => summarizeBiasSessions(observationsToColumns(records)),
    ]) {
      let error: unknown;
      try {
        run();
      } catch (caught) {
        error = caught;
      }
      expect(BiasAuditError.isInstance(error)).toBe(true);
      expect((error as BiasAuditError).code).toBe('INVALID_INPUT');
      expect((error as BiasAuditError).message).toContain(expected);
    }
  });

  it('is not met by a whole ranking, nor by a single ranked record (one rank places nothing)', () => {
    // r3 ranked one answer, at 4: no statistic reads a single rank, so it is not judged.
    const fine = [
      ...ranking('r1', [0, 2, 1]),
      ...ranking('r2', [2, 1, 0]),
      { ...ranking('r3', [4])[0]!, candidate: 'b' },
    ];
    expect(() => aggregateBiasAudit(fine, { window })).not.toThrow();
  });
});
