import { fixed } from './format.js';
import type { ContributionsReport } from './types.js';

/** The colour class of a share in [0, 1]: seven steps, dark text on the four light ones (contrast ≥ 4.5:1 each). */
export function heatClass(share: number): string {
  const step = Math.max(0, Math.min(6, Math.floor(share * 7)));
  return `heat heat-${step}`;
}

interface Column {
  title: string;
  value: (m: ContributionsReport['members'][number]) => number | null;
  describe: (m: ContributionsReport['members'][number]) => string;
}

const columns: Column[] = [
  {
    title: 'Influence share',
    value: (m) => m.meanWeight.estimate,
    describe: (m) =>
      `mean weight ${fixed(m.meanWeight.estimate)}, 95% interval ${fixed(m.meanWeight.lower)} to ${fixed(m.meanWeight.upper)}, ${m.meanWeight.n} sessions, ${m.meanWeight.tier}`,
  },
  {
    title: 'Credited',
    value: (m) => (m.sessions ? m.credited / m.sessions : null),
    describe: (m) => `credited in ${m.credited} of ${m.sessions} sessions`,
  },
  {
    title: 'Vote wins',
    value: (m) => (m.sessions ? m.wins / m.sessions : null),
    describe: (m) => `won ${m.wins} of ${m.sessions} sessions`,
  },
];

/**
 * §8.2's contribution heatmap: which members the chairman credits (their mean weight per session, with its
 * interval), beside how often they are credited at all and how often they win the vote.
 */
export function ContributionHeatmap({ report }: { report: ContributionsReport | null }) {
  if (!report || report.members.length === 0) return <p class="muted">No contribution data yet.</p>;
  const members = [...report.members].sort((a, b) => b.meanWeight.estimate - a.meanWeight.estimate);
  return (
    <div class="table-wrap">
      <table class="heatmap">
        <caption>
          Over {report.sessions} sessions with a contributors block. Colour: the share (0 to 1).
        </caption>
        <thead>
          <tr>
            <th scope="col">Member</th>
            {columns.map((c) => (
              <th key={c.title} scope="col">
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.member}>
              <th scope="row">{m.member}</th>
              {columns.map((c) => {
                const value = c.value(m);
                const label = `${m.member}: ${c.describe(m)}`;
                return (
                  <td key={c.title} class={value === null ? 'heat' : heatClass(value)} title={label} aria-label={label}>
                    {fixed(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
