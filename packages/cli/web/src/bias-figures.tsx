import { withInterval } from './format.js';
import { IntervalBar, extentOf } from './interval-bar.js';
import type { BiasReportDocument, Figure } from './types.js';

function FigureRow({ name, figure, extent }: { name: string; figure: Figure | null; extent: number }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td class="num">{withInterval(figure?.estimate, figure?.ciLower, figure?.ciUpper)}</td>
      <td>
        <IntervalBar
          estimate={figure?.estimate ?? null}
          lower={figure?.ciLower ?? null}
          upper={figure?.ciUpper ?? null}
          extent={extent}
        />
      </td>
      <td class="small">{figure?.confidence ?? ''}</td>
    </tr>
  );
}

function FigureTable({ caption, rows }: { caption: string; rows: { name: string; figure: Figure | null }[] }) {
  const extent = extentOf(rows.flatMap((r) => [r.figure?.ciLower, r.figure?.ciUpper, r.figure?.estimate]));
  return (
    <div class="table-wrap">
      <table class="figures">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Estimate [95% interval]</th>
            <th scope="col">
              <span class="visually-hidden">Interval drawn around zero</span>
            </th>
            <th scope="col">Confidence</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <FigureRow key={r.name} name={r.name} figure={r.figure} extent={extent} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The bias report's headline figures with their intervals, and its flags. */
export function BiasFigures({ document }: { document: BiasReportDocument }) {
  const report = document.report;
  if (!report || report.window.sessions === 0) return <p class="muted">No bias records in this window yet.</p>;
  return (
    <div class="bias">
      <p class="small">
        {report.window.sessions} sessions, {report.window.observations} scores · confidence {report.confidence}
        {report.meetsMinimum ? '' : ` (below the ${report.minSessions} sessions the report needs for firm figures)`}
      </p>
      {report.flags.length > 0 ? (
        <ul class="flags" aria-label="Flags">
          {report.flags.map((f) => (
            <li key={`${f.code}-${f.metric}`} class="flag">
              <strong>{f.code}</strong>
              {f.subject ? ` ${f.subject}` : ''}: {f.metric} = {withInterval(f.estimate, f.ciLower, f.ciUpper)}
            </li>
          ))}
        </ul>
      ) : (
        <p class="small">No flags.</p>
      )}
      <FigureTable
        caption="Reviewers' offsets (points against the typical reviewer: the robust centre of the panel, which one outlier cannot move)"
        rows={(report.reviewers ?? []).map((r) => ({ name: r.reviewer, figure: r.offset }))}
      />
      <FigureTable
        caption="Position effects (score points by display position)"
        rows={(report.position?.effects ?? []).map((f, i) => ({ name: `Position ${i + 1}`, figure: f }))}
      />
      <FigureTable
        caption="Length slope (score points per 1,000 characters)"
        rows={[{ name: 'Length slope', figure: report.length?.slope ?? null }]}
      />
      {report.notes.length > 0 && (
        <ul class="notes small">
          {report.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
