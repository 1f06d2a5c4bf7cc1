import { evidenceTier } from '../../src/bias-findings.js';
import { fixed } from './format.js';
import type { ContributionsReport, Interval } from './types.js';

/** The colour class of a share in [0, 1]: seven steps, dark text on the four light ones (contrast ≥ 4.5:1 each). */
export function heatClass(share: number): string {
  const step = Math.max(0, Math.min(6, Math.floor(share * 7)));
  return `heat heat-${step}`;
}

function describe(figure: Interval, what: string): string {
  if (figure.estimate === null) return `${what}: no data`;
  return `${what} ${fixed(figure.estimate)}, 95% interval ${fixed(figure.lower)} to ${fixed(figure.upper)}, ${figure.n} sessions${figure.tier ? `, evidence: ${evidenceTier(figure.tier)}` : ''}`;
}

function Cell({ member, figure, what }: { member: string; figure: Interval | undefined; what: string }) {
  if (!figure || figure.estimate === null) {
    const label = `${member}: ${what}: no sessions`;
    return (
      <td class="heat heat-none" title={label} aria-label={label}>
        –
      </td>
    );
  }
  const label = `${member}: ${describe(figure, what)}`;
  return (
    <td class={heatClass(figure.estimate)} title={label} aria-label={label}>
      {fixed(figure.estimate)}
    </td>
  );
}

/**
 * §8.2's contribution heatmap: how much of the synthesis the chairman credits to each member (the mean
 * per-session weight, by strategy and over all), beside how often the member wins the vote: influence is
 * not the same as winning. Each cell's interval is in its title and accessible name.
 */
export function ContributionHeatmap({ report }: { report: ContributionsReport }) {
  if (report.members.length === 0) return <p class="muted">No contribution data yet.</p>;
  const strategies = report.heatmap?.strategies ?? [];
  const cell = new Map((report.heatmap?.cells ?? []).map((c) => [`${c.member}\u0000${c.strategy}`, c.meanWeight]));
  return (
    <div class="table-wrap">
      <table class="heatmap">
        <caption>
          Influence share: the mean weight the chairman gave each member per session (
          {report.sessionsWithBlock ?? report.sessions} sessions with a contributors block), 0 to 1; vote wins for
          comparison.
        </caption>
        <thead>
          <tr>
            <th scope="col">Member</th>
            {strategies.map((s) => (
              <th key={s} scope="col">
                {s}
              </th>
            ))}
            <th scope="col">All strategies</th>
            <th scope="col">Vote win share</th>
          </tr>
        </thead>
        <tbody>
          {report.members.map((m) => (
            <tr key={m.member}>
              <th scope="row">{m.member}</th>
              {strategies.map((s) => (
                <Cell
                  key={s}
                  member={m.member}
                  figure={cell.get(`${m.member}\u0000${s}`)}
                  what={`influence share under ${s}`}
                />
              ))}
              <Cell member={m.member} figure={m.meanWeight} what="influence share" />
              <Cell
                member={m.member}
                figure={
                  m.winShare ?? {
                    estimate: m.sessions ? m.wins / m.sessions : null,
                    lower: null,
                    upper: null,
                    n: m.sessions,
                  }
                }
                what="vote win share"
              />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
