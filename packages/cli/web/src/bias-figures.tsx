import {
  evidenceTier,
  evidenceTierRange,
  findingSentence,
  flagName,
  metricLabel,
  userNote,
  withheldSentence,
} from '../../src/bias-findings.js';
import { withInterval } from './format.js';
import { IntervalBar, extentOf } from './interval-bar.js';
import type { BiasReportDocument, Figure, ReviewerDrift } from './types.js';

type Report = NonNullable<BiasReportDocument['report']>;

function FigureRow({ name, figure, extent }: { name: string; figure: Figure | null; extent: number }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td class="num">
        {figure?.estimable === false
          ? 'not estimable'
          : withInterval(figure?.estimate, figure?.ciLower, figure?.ciUpper)}
      </td>
      <td>
        <IntervalBar
          estimate={figure?.estimate ?? null}
          lower={figure?.ciLower ?? null}
          upper={figure?.ciUpper ?? null}
          extent={extent}
        />
      </td>
      <td class="small">{figure ? evidenceTier(figure.confidence) : ''}</td>
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
            <th scope="col">Evidence</th>
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

/** "2026-11-01 to 2026-11-10". */
function dates(period: { start: string; end: string }): string {
  return `${period.start.slice(0, 10)} to ${period.end.slice(0, 10)}`;
}

/** Each drifting reviewer's periods, oldest first, and the change between them. */
function ReviewerPeriods({ drifting }: { drifting: { reviewer: string; drift: ReviewerDrift }[] }) {
  return (
    <div class="table-wrap">
      <table class="periods">
        <caption>
          Reviewers whose offset changed within the window: the offset above is the latest period's, and its flag is
          judged on that period alone.
        </caption>
        <thead>
          <tr>
            <th scope="col">Reviewer</th>
            <th scope="col">Period</th>
            <th scope="col">Sessions</th>
            <th scope="col">Config version</th>
            <th scope="col">Offset [95% interval]</th>
            <th scope="col">Evidence</th>
          </tr>
        </thead>
        <tbody>
          {drifting.flatMap(({ reviewer, drift }) =>
            drift.periods.map((p, i) => (
              <tr key={`${reviewer}-${p.start}`}>
                {i === 0 && (
                  <th scope="rowgroup" rowSpan={drift.periods.length}>
                    {reviewer}
                  </th>
                )}
                <td>{dates(p)}</td>
                <td class="num">{p.sessions}</td>
                <td>{p.configVersion ?? '–'}</td>
                <td class="num">{withInterval(p.offset.estimate, p.offset.ciLower, p.offset.ciUpper)}</td>
                <td class="small">{evidenceTier(p.offset.confidence)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <ul class="small changes">
        {drifting.map(({ reviewer, drift }) => (
          <li key={reviewer}>
            {reviewer}: changed by {withInterval(drift.change.estimate, drift.change.ciLower, drift.change.ciUpper)}{' '}
            from {drift.since.timestamp.slice(0, 10)} (
            {drift.periods.length > 2
              ? `${drift.periods.length - 1} changes`
              : drift.cause === 'config_version'
                ? 'at a config-version change'
                : 'one change point'}
            , {drift.change.sessions} sessions)
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Figures that would have flagged but have fewer sessions of their own than the minimum: shown, not flagged. */
function withheldLines(report: Report): string[] {
  const figures: (Figure | null | undefined)[] = [
    report.length?.slope,
    ...(report.position?.effects ?? []),
    ...(report.reviewers ?? []).flatMap((r) => [
      r.offset,
      ...(r.drift ? [r.drift.change, ...r.drift.periods.map((p) => p.offset)] : []),
    ]),
  ];
  return figures.flatMap((f) => (f?.flagWithheld ? [`Not flagged, ${withheldSentence(f, f.flagWithheld)}`] : []));
}

/** The bias report's headline figures with their intervals, and its flags. */
export function BiasFigures({ document }: { document: BiasReportDocument }) {
  const report = document.report;
  if (!report || report.window.sessions === 0) return <p class="muted">No bias records in this window yet.</p>;
  const withheld = withheldLines(report);
  const drifting = (report.reviewers ?? []).flatMap((r) => (r.drift ? [{ reviewer: r.reviewer, drift: r.drift }] : []));
  // A short window where the drift test found nothing: the change it could have missed.
  const unseen = (report.reviewers ?? []).flatMap((r) =>
    r.driftPower ? [{ reviewer: r.reviewer, power: r.driftPower }] : [],
  );
  const unidentified = report.position?.identifiability;
  const notes = report.notes.flatMap((n) => userNote(n) ?? []);
  return (
    <div class="bias">
      <p class="small">
        {report.window.sessions.toLocaleString('en-US')} sessions, {report.window.observations.toLocaleString('en-US')}{' '}
        scores · evidence: {evidenceTierRange(report.confidence)}
        {report.meetsMinimum
          ? ''
          : ` · too little data for flags: ${report.window.sessions} sessions, ${report.minSessions} needed`}
      </p>
      {report.flags.length > 0 ? (
        <ul class="flags" aria-label="Flags">
          {report.flags.map((f) => (
            <li key={`${f.code}-${f.metric}`} class="flag">
              <strong>{flagName(f.code)}</strong>: {findingSentence(f)}
            </li>
          ))}
        </ul>
      ) : (
        <p class="small">No flags.</p>
      )}
      {withheld.length > 0 && (
        <ul class="withheld small" aria-label="Flags held back">
          {withheld.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <FigureTable
        caption="Reviewers' offsets (points against the typical reviewer: the robust centre of the panel, which one outlier cannot move)"
        rows={(report.reviewers ?? []).map((r) => ({ name: r.reviewer, figure: r.offset }))}
      />
      {drifting.length > 0 && <ReviewerPeriods drifting={drifting} />}
      {unseen.length > 0 && (
        <ul class="small drift-power" aria-label="Drift test power">
          {unseen.map(({ reviewer, power }) => (
            <li key={reviewer}>
              {reviewer}: no change found; with {power.sessions} sessions a change smaller than ±
              {power.undetectableBelow.toFixed(2)} points would likely go unseen
            </li>
          ))}
        </ul>
      )}
      <FigureTable
        caption="Position effects (points above or below the same reviewer’s average in the same session, by the order shown)"
        rows={(report.position?.effects ?? []).map((f) => ({ name: metricLabel(f.metric), figure: f }))}
      />
      {unidentified && (
        <p class="small not-estimable">Position not estimable: {unidentified.reason}; no position test or flag.</p>
      )}
      <FigureTable
        caption="Length slope (score points per 1,000 characters)"
        rows={[{ name: 'Length slope', figure: report.length?.slope ?? null }]}
      />
      {notes.length > 0 && (
        <ul class="notes small">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
