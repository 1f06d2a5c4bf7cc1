import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import type { BiasObservation } from '../bias-observation.js';
import { observationsToColumns } from '../observations-to-columns.js';
import { summarizeBiasSessions } from '../summarize-bias-sessions.js';
import { positionDesignFromColumns, positionIdentifiability } from './position-design.js';

const NOW = '2026-11-22T00:00:00Z';
const DAY = 86_400_000;
/** Authors' quality: c0 is 1.5 points better than the mean, c3 1.5 worse. */
const QUALITY = [1.5, 0.5, -0.5, -1.5];

/**
 * 32 sessions, one reviewer `x` scoring 4 answers at positions 0–3 by their author's quality alone (no position
 * effect). `authorAt(p, s)`: the author shown at position p in session s; `lengthAt(p, s)`: its length.
 */
function store(spec: {
  authorAt: (p: number, s: number) => number;
  lengthAt?: (p: number, s: number) => number;
}): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < 32; s++)
    for (let p = 0; p < 4; p++) {
      const c = spec.authorAt(p, s);
      out.push({
        sessionId: `s${s}`,
        timestamp: new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString(),
        reviewer: 'x',
        candidate: `c${c}`,
        position: p,
        responseLengthChars: spec.lengthAt?.(p, s) ?? 1000,
        score: 6 + QUALITY[c]!,
        rankPosition: null,
        configVersion: null,
        queryCategory: null,
      });
    }
  return out;
}

const fixed = (p: number): number => p;
const rotated = (p: number, s: number): number => (p + s) % 4;

describe('positionDesign and positionIdentifiability', () => {
  it('finds position fixed by author when each author is always shown at its own index', () => {
    // Author c_p always at p: within a session the author's position is its own, so the author fits every
    // position exactly and 0% of the within-session variation is left; the authors kept one order in 32 of 32.
    const design = positionDesignFromColumns(observationsToColumns(store({ authorAt: fixed })));
    expect(design).toMatchObject({
      sessions: 32,
      varyingSessions: 32,
      // One length throughout: length says nothing about position.
      withinLengthShare: 1,
      orderedSessions: 32,
      authorOrderSessions: 32,
    });
    expect(design.withinAuthorShare).toBeCloseTo(0, 12);
    const verdict = positionIdentifiability(design);
    expect(verdict).toMatchObject({ estimable: false, cause: 'author' });
    expect(!verdict.estimable && verdict.reason).toMatch(
      /^position is fixed by author: the authors were shown in the same order in 32 of 32 sessions, and only 0% /,
    );
  });

  it('finds position estimable when the same authors are shuffled between sessions', () => {
    // Author (p + s) mod 4 at p: over 32 sessions (8 turns) every author is shown 8 times at each position, so
    // every author's mean position is the session mean 1.5 and the author explains none of it: share 1.
    const design = positionDesignFromColumns(observationsToColumns(store({ authorAt: rotated })));
    expect(design.withinAuthorShare).toBeCloseTo(1, 12);
    expect(design.withinLengthShare).toBe(1);
    // Pairwise, c0 comes before c1 in 3 turns of 4, c1 before c2, c2 before c3, and c3 before c0 (c0 and c2, c1
    // and c3 tie): the usual order is a cycle, and each turn breaks one of its links, so no session keeps it.
    expect(design.authorOrderSessions).toBe(0);
    expect(positionIdentifiability(design)).toEqual({ estimable: true });
  });

  it('finds position tied to length when the answers are shown longest first', () => {
    // Authors rotated (share 1), but the answer at p is the (4 − p)th longest: length rank 3 − p, a line in p.
    const design = positionDesignFromColumns(
      observationsToColumns(store({ authorAt: rotated, lengthAt: (p, s) => 1000 - 100 * p + 10 * s })),
    );
    expect(design.withinAuthorShare).toBeCloseTo(1, 12);
    expect(design.withinLengthShare).toBe(0);
    expect(design).toMatchObject({ lengthSessions: 32, lengthOrderSessions: 32, longestFirst: true });
    const verdict = positionIdentifiability(design);
    expect(verdict).toMatchObject({ estimable: false, cause: 'length' });
    expect(!verdict.estimable && verdict.reason).toMatch(
      /^position is tied to length: the answers were shown longest first in 32 of 32 sessions, and only 0% /,
    );
  });

  it('leaves a tenth when 5 members each review the other 4 by author (an order that drops the reviewer)', () => {
    // Reviewer r sees authors 0–4 less itself, in order: author a at a − 1 for reviewers r < a, at a for r > a.
    // Per session the 20 positions are 0–3 five times each: SS 5·(2.25 + .25 + .25 + 2.25) = 25. Author a's
    // 4 records sit a at a − 1 and 4 − a at a: within-author SS a(4 − a)/4 = 0, .75, 1, .75, 0, sum 2.5: share .1.
    const data: BiasObservation[] = [];
    for (let s = 0; s < 20; s++)
      for (let r = 0; r < 5; r++)
        [0, 1, 2, 3, 4]
          .filter((a) => a !== r)
          .forEach((a, position) =>
            data.push({
              sessionId: `s${s}`,
              timestamp: new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString(),
              reviewer: `m${r}`,
              candidate: `m${a}`,
              position,
              responseLengthChars: 1000,
              score: 6 - 0.3 * a + 0.1 * ((r + s) % 3),
              rankPosition: null,
              configVersion: null,
              queryCategory: null,
            }),
          );
    const design = positionDesignFromColumns(observationsToColumns(data));
    expect(design.withinAuthorShare).toBeCloseTo(0.1, 12);
    const report = aggregateBiasAudit(data, { window: { now: NOW } });
    expect(report.position.identifiability).toMatchObject({
      cause: 'author',
      withinAuthorShare: design.withinAuthorShare,
    });
    expect(report.position.identifiability!.reason).toMatch(/ 20 of 20 sessions, and only 10% /);
    expect(report.flags.filter((f) => f.code === 'POSITION_BIAS_DETECTED')).toEqual([]);
  });
});

describe('aggregateBiasAudit on orders that do not identify position', () => {
  it('reports no position figure, test or flag where each author is always shown at its own index', () => {
    // Columns are taken whole (the default window of observations would keep 30 of the 32 sessions).
    const columns = observationsToColumns(store({ authorAt: fixed }));
    const report = aggregateBiasAudit(columns, { window: { now: NOW } });
    // Read naively, position 0 would be c0's +1.5 (and a flag): here it is not estimable, and says why.
    const figures = [...report.position.effects, report.position.primacy, report.position.recency, report.anchoring];
    expect(report.position.effects).toHaveLength(4);
    for (const f of figures) {
      expect(f).toMatchObject({ estimable: false, estimate: null, ciLower: null, ciUpper: null });
      expect(f.note).toMatch(/^Not estimable: position is fixed by author: /);
    }
    expect(report.position.tests).toEqual([]);
    expect(report.position.identifiability).toMatchObject({
      estimable: false,
      cause: 'author',
      withinLengthShare: 1,
      minimumShare: 0.5,
    });
    expect(report.position.identifiability!.withinAuthorShare).toBeCloseTo(0, 12);
    expect(report.flags.filter((f) => f.code === 'POSITION_BIAS_DETECTED' || f.code === 'ANCHORING')).toEqual([]);
    expect(report.tests.map((t) => t.family)).not.toContain('position');
    expect(report.notes.join(' ')).toMatch(
      /Position is not estimable: position is fixed by author: .* No position figure/,
    );
    // Summaries of the same records give the same report.
    expect(aggregateBiasAudit(summarizeBiasSessions(columns), { window: { now: NOW } }).position).toEqual(
      report.position,
    );
  });

  it('reports the position figures, with no identifiability field, once the authors are shuffled', () => {
    const report = aggregateBiasAudit(observationsToColumns(store({ authorAt: rotated })), { window: { now: NOW } });
    expect(report.position.identifiability).toBeUndefined();
    // Each position shows each author 8 times: its mean centred score is (1.5 + .5 − .5 − 1.5)/4 = 0.
    for (const f of report.position.effects) {
      expect(f.estimable).toBeUndefined();
      expect(f.estimate).toBeCloseTo(0, 12);
    }
    expect(report.position.tests).toHaveLength(1);
    expect(report.flags.filter((f) => f.code === 'POSITION_BIAS_DETECTED')).toEqual([]);
  });

  it('says the length figures may read position where the answers were shown longest first', () => {
    const columns = observationsToColumns(store({ authorAt: rotated, lengthAt: (p, s) => 1000 - 100 * p + 10 * s }));
    const report = aggregateBiasAudit(columns, { window: { now: NOW } });
    expect(report.position.identifiability).toMatchObject({
      cause: 'length',
      withinAuthorShare: 1,
      withinLengthShare: 0,
    });
    const caution =
      "The answers were shown longest first in 32 of 32 sessions (0% of position's variation left once length order is known): an effect of display position may read as length here.";
    expect(report.length.slope.estimate).not.toBeNull();
    expect(report.length.slope.note).toContain(caution);
    expect(report.length.correlation.note).toContain(caution);
    expect(report.length.betweenSessions.note ?? '').not.toContain(caution);
  });

  it('checks nothing below 10 sessions, where no figure is shown anyway', () => {
    const data = store({ authorAt: fixed }).filter((o) => Number(o.sessionId.slice(1)) < 9);
    const report = aggregateBiasAudit(data, { window: { now: NOW } });
    expect(report.confidence).toBe('insufficient_data');
    expect(report.position.identifiability).toBeUndefined();
    expect(report.position.effects[0]!.estimable).toBeUndefined();
  });
});
