import { evidenceTier, indicatorName, metricLabel } from '../bias-findings.js';
import { countNoun } from '../count-noun.js';
import { renderCalibratedSection } from './calibrated-section.js';
import type { HtmlReportData, ReportMetricRow } from './html-report-data.js';
import { renderIntervalChart } from './interval-chart.js';
import { renderMatrixChart } from './matrix-chart.js';
import { renderScatterChart } from './scatter-chart.js';
import { escapeXml, formatNumber } from './svg-primitives.js';
import { renderTrendChart } from './trend-chart.js';

const TIER_TEXT: Record<HtmlReportData['confidence'], string> = {
  insufficient_data: 'Collecting data…',
  preliminary: 'Evidence: preliminary (high volatility)',
  moderate: 'Evidence: moderate',
  high: 'Evidence: high',
};

const CSS = `
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dde5;--accent:#2f6fb3;--warn:#b3541e;--bg:#fff}
*{box-sizing:border-box}body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0}
main{max-width:980px;margin:0 auto;padding:24px 20px 60px}h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:36px 0 6px;border-bottom:1px solid var(--line);padding-bottom:4px}
.meta{color:var(--muted);margin:0 0 12px}.badge{display:inline-block;padding:2px 9px;border-radius:10px;font-size:13px;font-weight:600;margin-right:6px;border:1px solid currentColor}
.sim{color:#7a3db8}.tier-insufficient_data{color:var(--muted)}.tier-preliminary{color:var(--warn)}.tier-moderate{color:var(--accent)}.tier-high{color:#2a7a3b}
.notice{background:#fff6e8;border-left:4px solid var(--warn);padding:8px 12px;margin:12px 0}
table{border-collapse:collapse;margin:8px 0;font-size:14px}th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.flagged td:first-child::after{content:" ⚑";color:var(--warn)}
figure{margin:10px 0}figcaption{color:var(--muted);font-size:13px;max-width:720px}svg.chart{max-width:100%;height:auto;display:block;font:12px system-ui,sans-serif}
svg .grid{stroke:#eceff4}svg .reference{stroke:#8a93a3;stroke-dasharray:4 3}svg .tick{fill:var(--muted)}svg .label{fill:var(--fg)}svg .axis-label{fill:var(--muted)}
svg .interval .whisker,svg .interval .cap{stroke:#8fa6c4;stroke-width:2}svg .interval .dot{fill:#8fa6c4}
svg .interval.excludes .whisker,svg .interval.excludes .cap{stroke:var(--accent)}svg .interval.excludes .dot{fill:var(--accent)}
svg .interval.highlight .dot{fill:var(--warn)}svg .margin{fill:#8a93a3;fill-opacity:.12}svg .point{fill:var(--accent);fill-opacity:.35}svg .fit{stroke:var(--warn);stroke-width:2}
svg .band{fill:var(--accent);fill-opacity:.15}svg .line{fill:none;stroke:var(--accent);stroke-width:2}svg .dot{fill:var(--accent)}
svg .cell .value{fill:var(--fg);font-size:11px}svg .cell.self rect{stroke:var(--fg);stroke-width:2}
details{margin:4px 0 0}summary{cursor:pointer;color:var(--muted);font-size:13px}footer{margin-top:40px;color:var(--muted);font-size:13px}
main{overflow-wrap:anywhere}table{overflow-wrap:normal}
.scroll{overflow-x:auto;container-type:inline-size;background:linear-gradient(to right,var(--bg) 30%,#fff0) left/2rem 100% no-repeat local,linear-gradient(to left,var(--bg) 30%,#fff0) right/2rem 100% no-repeat local,radial-gradient(farthest-side at 0 50%,#0004,#0000) left/.75rem 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,#0004,#0000) right/.75rem 100% no-repeat scroll}
.scroll caption{position:sticky;left:0;max-width:100cqi;text-align:left}
@media (max-width:640px){main{padding:16px 12px 40px}th,td{padding:4px 6px}td:first-child,th[scope=rowgroup]{min-width:7.5rem;overflow-wrap:anywhere}h2{margin-top:28px}}
@media print{summary{display:none}details{display:block}.scroll{overflow:visible;background:none}}
`;

function interval(row: { ciLower: number | null; ciUpper: number | null }, digits = 3): string {
  return row.ciLower === null || row.ciUpper === null
    ? 'n/a'
    : `[${formatNumber(row.ciLower, digits)}, ${formatNumber(row.ciUpper, digits)}]`;
}

function formatPValue(p: number | null | undefined): string {
  if (p === undefined || p === null || !Number.isFinite(p)) return '';
  return p < 0.001 ? '&lt; 0.001' : formatNumber(p, 3);
}

function metricsTable(rows: readonly ReportMetricRow[]): string {
  const body = rows
    .map(
      (m) =>
        `<tr class="${m.flagged ? 'flagged' : ''}"><td>${escapeXml(metricLabel(m.metric))}</td><td class="num">${m.confidence === 'insufficient_data' ? '–' : formatNumber(m.estimate, 3)}</td>` +
        `<td class="num">${m.confidence === 'insufficient_data' ? '–' : interval(m)}</td><td class="num">${m.sampleSize}</td><td class="num">${m.sessions}</td>` +
        `<td class="num">${formatPValue(m.pValue)}</td><td class="num">${m.margin === undefined ? '–' : `±${formatNumber(m.margin, 2)}`}</td><td>${escapeXml(evidenceTier(m.confidence))}</td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table><thead><tr><th>figure</th><th>estimate</th><th>95% interval</th><th>N</th><th>sessions</th><th>p</th><th title="a flag needs the interval beyond ±margin">flag beyond</th><th title="the tier the figure's sessions earn: too little data below 10, preliminary 10–19, moderate 20–49, high from 50">evidence</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

function dataTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return (
    `<details><summary>Data table</summary><div class="scroll"><table><thead><tr>${head.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>` +
    rows
      .map((r) => `<tr>${r.map((c, i) => `<td${i > 0 ? ' class="num"' : ''}>${escapeXml(c)}</td>`).join('')}</tr>`)
      .join('') +
    '</tbody></table></div></details>'
  );
}

function figure(svg: string, caption: string, table: string): string {
  return `<figure>${svg}<figcaption>${caption}</figcaption>${table}</figure>`;
}

/**
 * ADR-018's bias report as one self-contained HTML file: inline CSS and SVG, no script and no network
 * request, so it opens offline, prints, and reads without JavaScript. Every chart has a data table beside it.
 */
export function renderHtmlReport(data: HtmlReportData): string {
  const window =
    data.windowStart && data.windowEnd
      ? `${data.windowStart.slice(0, 10)} to ${data.windowEnd.slice(0, 10)}`
      : 'no records';
  const sections: string[] = [];
  sections.push(
    `<header><h1>${escapeXml(data.title)}</h1>` +
      `<p class="meta">${data.simulated ? '<span class="badge sim">SIMULATED DATA</span>' : ''}<span class="badge tier-${data.confidence}">${escapeXml(TIER_TEXT[data.confidence])}</span>` +
      `${countNoun(data.sessions, 'session')} · ${data.observations.toLocaleString('en-US')} observations · window ${escapeXml(window)} · source ${escapeXml(data.source)} · generated ${escapeXml(data.generatedAt)}</p></header>`,
  );
  if (data.simulated) {
    sections.push(
      '<p class="notice">Every record in this report came from the <strong>simulated</strong> provider: offline personas with built-in biases. It shows what the report looks like, not how any real model behaves.</p>',
    );
  }
  if (data.leftOut !== undefined) sections.push(`<p class="notice">${escapeXml(data.leftOut)}</p>`);
  if (data.confidence === 'insufficient_data') {
    sections.push(
      `<p class="notice"><strong>Collecting data…</strong> ${data.sessions} of the 10 sessions needed before any figure is shown. Run more sessions, e.g. with <code>council batch</code>.</p>`,
    );
    return page(data.title, sections);
  }
  if (data.confidence === 'preliminary') {
    sections.push(
      `<p class="notice"><strong>High volatility:</strong> only ${data.sessions} sessions (fewer than 20). Read the intervals, not the point estimates.</p>`,
    );
  }
  sections.push(`<h2>Summary</h2>${metricsTable(data.metrics)}`);
  if (data.notes.length > 0) sections.push(`<ul>${data.notes.map((n) => `<li>${escapeXml(n)}</li>`).join('')}</ul>`);

  sections.push('<h2>Position effects</h2>');
  sections.push(
    figure(
      renderIntervalChart({
        id: 'chart-position',
        title: 'Position effects',
        description:
          'Mean score, centred within each session and reviewer, by the position a response was shown in, with 95% intervals.',
        rows: data.positionEffects,
        axisLabel: 'score relative to the reviewer’s session mean',
        margin: data.margins.position,
      }),
      `Each row is a display position. A dot right of the dashed line means responses shown there scored higher than the same reviewer’s other scores in that session. The grey band, ±${formatNumber(data.margins.position, 2)} points, is too small to flag; darker rows have an interval beyond it.`,
      dataTable(
        ['position', 'effect', '95% interval', 'N'],
        data.positionEffects.map((r) => [r.label, formatNumber(r.estimate, 3), interval(r), String(r.n)]),
      ),
    ),
  );

  sections.push('<h2>Reviewer offsets</h2>');
  sections.push(
    figure(
      renderIntervalChart({
        id: 'chart-reviewers',
        title: 'Reviewer offsets',
        description:
          'Points each reviewer gives the same answer beyond what the typical reviewer gives it, display position held fixed, with 95% intervals.',
        rows: data.reviewerOffsets,
        axisLabel: 'points vs the typical reviewer, same answer (negative = harsh)',
        margin: data.margins.reviewerOffset,
      }),
      `Left of the line: harsher than the typical reviewer on the same answers; right: more generous. The typical reviewer is a robust centre of all reviewers, so one harsh reviewer makes no one else look generous. The grey band, ±${formatNumber(data.margins.reviewerOffset, 2)} points, is too small to flag; orange dots are flagged. For analytics only: Council never reweights live votes by these profiles.`,
      dataTable(
        ['reviewer', 'offset', '95% interval', 'N'],
        data.reviewerOffsets.map((r) => [r.label, formatNumber(r.estimate, 3), interval(r), String(r.n)]),
      ),
    ),
  );

  if (data.calibrated !== undefined) sections.push(renderCalibratedSection(data.calibrated));

  const drifting = data.reviewerPeriods ?? [];
  if (drifting.length > 0) {
    sections.push('<h2>Reviewers whose offset changed</h2>');
    sections.push(
      '<p class="meta">Each reviewer here scored differently from some session on: its offset above (and its harsh or generous flag) is its latest period’s. The periods’ offsets are fitted together, against the same typical reviewer.</p>',
    );
    const body = drifting
      .flatMap((d) =>
        d.periods.map(
          (p, i) =>
            `<tr>${i === 0 ? `<th scope="rowgroup" rowspan="${d.periods.length}">${escapeXml(d.reviewer)}</th>` : ''}<td>${escapeXml(p.dates)}</td><td class="num">${p.sessions}</td><td>${escapeXml(p.configVersion ?? '–')}</td>` +
            `<td class="num">${p.offset.confidence === 'insufficient_data' ? '–' : formatNumber(p.offset.estimate, 3)}</td><td class="num">${p.offset.confidence === 'insufficient_data' ? '–' : interval(p.offset)}</td><td>${escapeXml(evidenceTier(p.offset.confidence))}</td></tr>`,
        ),
      )
      .join('');
    sections.push(
      `<div class="scroll"><table class="periods"><caption>Periods, oldest first</caption><thead><tr><th>reviewer</th><th>period</th><th>sessions</th><th>config version</th><th>offset</th><th>95% interval</th><th>evidence</th></tr></thead><tbody>${body}</tbody></table></div>`,
    );
    sections.push(
      `<ul>${drifting
        .map(
          (d) =>
            `<li>${escapeXml(d.reviewer)}: changed by ${formatNumber(d.change.estimate, 3)} ${interval(d.change)} from ${escapeXml(d.since.date)} (session ${escapeXml(d.since.sessionId)}; ${escapeXml(d.cause)}, p ${d.pValue < 0.001 ? '&lt; 0.001' : `= ${formatNumber(d.pValue, 3)}`}, ${d.change.sessions} sessions)</li>`,
        )
        .join('')}</ul>`,
    );
  }

  const unseen = data.driftUnseen ?? [];
  if (unseen.length > 0) {
    sections.push('<h2>Drift test power</h2>');
    sections.push(
      '<p class="meta">A short window: the drift test found no change in these reviewers, but it would likely miss one smaller than this (80% power), and their offsets above are the whole window’s.</p>',
    );
    sections.push(`<ul>${unseen.map((u) => `<li>${escapeXml(u.reviewer)}: ${escapeXml(u.line)}</li>`).join('')}</ul>`);
  }

  const { slope, correlation, betweenSessions } = data.lengthVsScore;
  const lengthRows = [
    { label: 'slope within sessions (points per 1,000 characters)', m: slope },
    { label: 'correlation r within sessions', m: correlation },
    { label: 'between sessions, points per 1,000 characters (association, not flagged)', m: betweenSessions },
  ].filter((r): r is { label: string; m: ReportMetricRow } => r.m !== null);
  sections.push('<h2>Length and score</h2>');
  sections.push(
    figure(
      renderScatterChart({
        id: 'chart-length',
        title: 'Answer length against score, within sessions',
        description:
          'One point per scored answer: its length and its mean score, each relative to the mean over the answers of its session.',
        points: data.lengthVsScore.points,
        xLabel: 'length minus the session’s mean answer length (characters)',
        yLabel: 'mean score minus the session’s mean',
      }),
      `${slope ? `Within sessions, each 1,000 more characters go with ${formatNumber(slope.estimate, 3)} score points, 95% interval ${interval(slope)} over ${slope.sessions} sessions${correlation ? ` (r = ${formatNumber(correlation.estimate, 3)})` : ''}. ` : ''}` +
        `${betweenSessions && betweenSessions.estimate !== null ? `Between sessions, ${formatNumber(betweenSessions.estimate, 3)} points per 1,000 characters ${interval(betweenSessions)}: an association (questions with long answers may simply score differently), never flagged. ` : ''}` +
        `${data.lengthVsScore.points.length < data.lengthVsScore.total ? `Showing ${data.lengthVsScore.points.length.toLocaleString('en-US')} of ${data.lengthVsScore.total.toLocaleString('en-US')} answers, evenly thinned. ` : ''}` +
        'The line is the least-squares fit of these points; the reported slope also holds reviewers’ offsets, positions and self-preference fixed, so it can differ a little.',
      dataTable(
        ['figure', 'estimate', '95% interval', 'sessions'],
        lengthRows.map((r) => [r.label, formatNumber(r.m.estimate, 3), interval(r.m), String(r.m.sessions)]),
      ),
    ),
  );

  sections.push('<h2>Trends over time</h2>');
  if (data.trends.length === 0 || data.trends.every((t) => t.points.length === 0)) {
    sections.push('<p class="meta">Not enough sessions for rolling windows yet.</p>');
  }
  data.trends.forEach((trend, i) => {
    if (trend.points.length === 0) return;
    sections.push(
      figure(
        renderTrendChart({
          id: `chart-trend-${i}`,
          title: `${indicatorName(trend.metric)} over time`,
          description: `${indicatorName(trend.metric)} per rolling window with its 95% interval.`,
          points: trend.points,
          yLabel: indicatorName(trend.metric),
        }),
        `<strong>${escapeXml(indicatorName(trend.metric))}</strong> per rolling window; the band is the 95% interval.`,
        dataTable(
          ['window end', 'estimate', '95% interval'],
          trend.points.map((p) => [p.at.slice(0, 10), formatNumber(p.estimate, 3), interval(p)]),
        ),
      ),
    );
  });

  sections.push('<h2>Self-preference and affinity</h2>');
  sections.push(
    figure(
      renderMatrixChart({
        id: 'chart-affinity',
        title: 'Reviewer to candidate affinity',
        description:
          'Points a reviewer gives one author’s answers beyond its offset, the answer’s level, position and self-preference (the score model’s residual); the outlined diagonal is self-preference.',
        reviewers: data.affinity.reviewers,
        candidates: data.affinity.candidates,
        values: data.affinity.values,
      }),
      'Rows are reviewers, columns the authors of the answers they scored. Orange: the reviewer favours that author beyond its usual offset; blue: disfavours. Outlined cells are a reviewer scoring its own answer: the points it adds beyond its offset (self-preference).',
      dataTable(
        ['reviewer → candidate', 'affinity'],
        data.affinity.reviewers.flatMap((r, i) =>
          data.affinity.candidates.map((c, j) => [
            `${r} → ${c}`,
            formatNumber(data.affinity.values[i]?.[j] ?? null, 3),
          ]),
        ),
      ),
    ),
  );
  return page(data.title, sections);
}

function page(title: string, sections: readonly string[]): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    // No script, no external resource: the policy makes the browser refuse any request the page might try.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` +
    `<title>${escapeXml(title)}</title><style>${CSS}</style></head><body><main>${sections.join('\n')}` +
    '<footer>Generated by <code>council bias-report</code>. Every figure carries N, a 95% interval, its data window and an evidence tier (how many sessions it rests on: too little data below 10, preliminary 10–19, moderate 20–49, high from 50). Self-contained: no scripts, no network.</footer></main></body></html>\n'
  );
}
