import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from './aggregate-bias-audit.js';
import type { BiasObservation } from './bias-observation.js';

const NOW = '2026-11-22T00:00:00Z';

/**
 * 13 sessions in which three members score each other's answers 7.3, every one: no score differs from any other, so
 * there is no length slope, no offset and no affinity, and nothing to test. 7.3 is not exact in binary, so the
 * adjusted levels the model leaves differ by rounding (~1e-15 points): figures and p-values read from those are noise.
 */
function sameScoreObservations(score: number): BiasObservation[] {
  const members = ['m/a', 'm/b', 'm/c'];
  const out: BiasObservation[] = [];
  for (let i = 0; i < 13; i++)
    for (const reviewer of members)
      members
        .filter((m) => m !== reviewer)
        .forEach((candidate, k) =>
          out.push({
            sessionId: `d-${i}`,
            timestamp: new Date(Date.parse(NOW) - (i + 1) * 3_600_000).toISOString(),
            reviewer,
            candidate,
            position: (k + i) % 2,
            responseLengthChars: 800 + 100 * members.indexOf(candidate) + (i % 3) * 50,
            score,
            rankPosition: k,
            configVersion: '1.0.0',
            queryCategory: 'coding',
          }),
        );
  return out;
}

describe('aggregateBiasAudit: scores without any spread', () => {
  it.each([7, 7.3])(
    'every score %s: the slopes and offsets are 0 with no test (p null, said), not a p from rounding',
    (score) => {
      const report = aggregateBiasAudit(sameScoreObservations(score), { window: { now: NOW } });
      const { slope, correlation, betweenSessions } = report.length;
      for (const figure of [slope, betweenSessions, ...report.reviewers.map((r) => r.offset), ...report.affinity]) {
        expect(figure.estimate).toBe(0);
        expect([figure.ciLower, figure.ciUpper]).toEqual([0, 0]);
        expect(figure.pValue).toBeNull();
        expect(figure.note).toMatch(/^No variation: /);
      }
      // r = Sxy/√(Sxx·Syy) is 0/0 where the scores do not vary: not computable, not ±0.000 with p < 0.001.
      expect(correlation.estimate).toBeNull();
      expect(report.flags).toEqual([]);
    },
  );
});
