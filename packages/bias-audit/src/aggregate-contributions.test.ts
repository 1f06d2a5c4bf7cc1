import { describe, expect, it } from 'vitest';
import { aggregateContributions } from './aggregate-contributions.js';
import { boundedMeanInterval } from './bounded-mean-interval.js';
import type { ContributionInput } from './contributions-report.js';

function row(
  sessionId: string,
  day: string,
  fields: { member: string; strategy?: string; weight: number | null; voteWinner?: boolean },
): ContributionInput {
  return {
    sessionId,
    timestamp: `2026-${day}T10:00:00.000Z`,
    member: fields.member,
    strategy: fields.strategy ?? 'balanced',
    weight: fields.weight,
    voteWinner: fields.voteWinner ?? false,
  };
}

// Four sessions worked by hand: s0 has no contributors block; s1 credits a and b half each; s2 credits a alone
// (c absent); s3 (risk-averse) credits a 0.25 and c 0.75 (b absent).
const records: ContributionInput[] = [
  row('s0', '10-31', { member: 'a', weight: null, voteWinner: true }),
  row('s0', '10-31', { member: 'b', weight: null }),
  row('s1', '11-01', { member: 'a', weight: 0.5, voteWinner: true }),
  row('s1', '11-01', { member: 'b', weight: 0.5 }),
  row('s1', '11-01', { member: 'c', weight: 0 }),
  row('s2', '11-02', { member: 'a', weight: 1 }),
  row('s2', '11-02', { member: 'b', weight: 0, voteWinner: true }),
  row('s3', '11-03', { member: 'a', strategy: 'risk-averse', weight: 0.25 }),
  row('s3', '11-03', { member: 'c', strategy: 'risk-averse', weight: 0.75, voteWinner: true }),
];

describe('boundedMeanInterval', () => {
  it("is Wilson's interval at the mean: 0.5833 of 3 gives [0.16417, 0.90892] (by hand: centre 0.53654, half 0.37238)", () => {
    const i = boundedMeanInterval([0.5, 1, 0.25]);
    expect(i.estimate).toBeCloseTo(1.75 / 3, 12);
    expect(i.lower).toBeCloseTo(0.164165, 5);
    expect(i.upper).toBeCloseTo(0.908919, 5);
    expect(i.n).toBe(3);
  });

  it('all zeros of 5 give [0, z²/(5 + z²)] = [0, 0.43448], never a zero-width interval', () => {
    const z = 1.959963984540054;
    const i = boundedMeanInterval([0, 0, 0, 0, 0]);
    expect(i).toMatchObject({ estimate: 0, lower: 0, n: 5 });
    expect(i.upper).toBeCloseTo((z * z) / (5 + z * z), 12);
    expect(i.upper).toBeCloseTo(0.434482, 5);
  });

  it('no values give null figures, and a value outside [0, 1] is refused', () => {
    expect(boundedMeanInterval([])).toEqual({ estimate: null, lower: null, upper: null, n: 0 });
    expect(() => boundedMeanInterval([0.5, 1.5])).toThrow(/values from 0 to 1, got 1.5/);
  });
});

describe('aggregateContributions', () => {
  it('gives each member its influence share, credits and vote wins, worked by hand over four sessions', () => {
    const report = aggregateContributions(records);
    expect(report.sessions).toBe(4);
    expect(report.sessionsWithBlock).toBe(3);
    expect(report.window).toEqual({
      since: null,
      maxSessions: null,
      first: '2026-10-31T10:00:00.000Z',
      last: '2026-11-03T10:00:00.000Z',
    });
    // a: weights 0.5, 1, 0.25 → 0.58333; c: 0, 0.75 → 0.375; b: 0.5, 0 → 0.25.
    expect(report.members.map((m) => [m.member, m.satIn, m.sessions, m.credited, m.wins])).toEqual([
      ['a', 4, 3, 3, 2],
      ['c', 2, 2, 1, 1],
      ['b', 3, 2, 1, 1],
    ]);
    const [a, c, b] = report.members;
    expect(a!.meanWeight.estimate).toBeCloseTo(0.583333, 6);
    expect(a!.meanWeight.lower).toBeCloseTo(0.164165, 5);
    expect(a!.meanWeight.upper).toBeCloseTo(0.908919, 5);
    expect(a!.meanWeight.tier).toBe('insufficient_data');
    expect(b!.meanWeight.estimate).toBe(0.25);
    expect(b!.meanWeight.lower).toBeCloseTo(0.026677, 5);
    expect(b!.meanWeight.upper).toBeCloseTo(0.802133, 5);
    expect(c!.meanWeight.estimate).toBe(0.375);
    expect(c!.meanWeight.lower).toBeCloseTo(0.056095, 5);
    expect(c!.meanWeight.upper).toBeCloseTo(0.85831, 5);
    // a led the vote in 2 of the 4 sessions it sat in: Wilson 2/4 = [0.15004, 0.84996].
    expect(a!.winShare.estimate).toBe(0.5);
    expect(a!.winShare.lower).toBeCloseTo(0.150039, 5);
    expect(a!.winShare.upper).toBeCloseTo(0.849961, 5);
    expect(a!.winShare.n).toBe(4);
  });

  it('builds the member × strategy heatmap from the sessions with a block', () => {
    const { heatmap } = aggregateContributions(records);
    expect(heatmap.strategies).toEqual(['balanced', 'risk-averse']);
    expect(
      heatmap.cells.map((cell) => [cell.member, cell.strategy, cell.meanWeight.estimate, cell.meanWeight.n]),
    ).toEqual([
      ['a', 'balanced', 0.75, 2],
      ['a', 'risk-averse', 0.25, 1],
      ['c', 'balanced', 0, 1],
      ['c', 'risk-averse', 0.75, 1],
      ['b', 'balanced', 0.25, 2],
    ]);
    expect(heatmap.cells[0]!.meanWeight.lower).toBeCloseTo(0.197867, 5);
  });

  it('windows by the last N sessions and by a start time', () => {
    expect(() => aggregateContributions(records, { maxSessions: 2 } as never)).toThrow(
      'aggregateContributions: maxSessions is now window.sessions.',
    );
    const last = aggregateContributions(records, { window: { sessions: 2 } });
    expect(last.sessions).toBe(2);
    expect(last.members.map((m) => [m.member, m.meanWeight.estimate])).toEqual([
      ['c', 0.75],
      ['a', 0.625],
      ['b', 0],
    ]);
    const since = aggregateContributions(records, { window: { since: '2026-11-02T00:00:00Z' } });
    expect(since.members).toEqual(last.members);
    expect(since.window.since).toBe('2026-11-02T00:00:00.000Z');
    expect(aggregateContributions(records, { window: { since: '2027-01-01T00:00:00Z' } })).toMatchObject({
      sessions: 0,
      members: [],
      heatmap: { strategies: [], cells: [] },
      window: { first: null, last: null },
    });
  });

  it('gives the confidence tier of the sessions behind each figure (ADR-018: 10 preliminary, 20 moderate, 50 high)', () => {
    const many = (n: number): ContributionInput[] =>
      Array.from({ length: n }, (_, i) => ({
        sessionId: `s${i}`,
        timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        member: 'a',
        strategy: 'balanced',
        weight: 1,
        voteWinner: false,
      }));
    expect(aggregateContributions(many(9)).members[0]!.meanWeight.tier).toBe('insufficient_data');
    expect(aggregateContributions(many(10)).members[0]!.meanWeight.tier).toBe('preliminary');
    expect(aggregateContributions(many(20)).members[0]!.meanWeight.tier).toBe('moderate');
    expect(aggregateContributions(many(50)).members[0]!.meanWeight.tier).toBe('high');
  });

  it('refuses bad windows and inconsistent records with what to do', () => {
    expect(() => aggregateContributions(records, { window: { sessions: 0 } })).toThrow(
      /sessions must be a positive integer \(or Infinity\), got 0/,
    );
    expect(() => aggregateContributions(records, { window: { since: 'last week' } })).toThrow(
      /since must be an ISO 8601 date-time/,
    );
    expect(() => aggregateContributions([...records, row('s1', '11-01', { member: 'a', weight: 0.5 })])).toThrow(
      /session s1 has member a twice/,
    );
    expect(() => aggregateContributions([...records, row('s1', '11-01', { member: 'd', weight: null })])).toThrow(
      /session s1 has weights for some members and none/,
    );
    expect(() => aggregateContributions([row('x', '11-01', { member: 'a', weight: 2 })])).toThrow(
      /weight must be from 0 to 1/,
    );
  });
});
