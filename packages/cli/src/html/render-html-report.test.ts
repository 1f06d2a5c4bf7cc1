import { describe, expect, it } from 'vitest';
import { sampleReportData } from '../testing/sample-report-data.js';
import { renderHtmlReport } from './render-html-report.js';

function charts(html: string): string[] {
  return [...html.matchAll(/<svg [^>]*id="(chart-[^"]+)"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
}

describe('renderHtmlReport', () => {
  it('is one self-contained page: no script, no external URL, a CSP that forbids requests', () => {
    const html = renderHtmlReport(sampleReportData());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('draws the five chart kinds, each with marks', () => {
    const html = renderHtmlReport(sampleReportData());
    const svgs = charts(html);
    expect(svgs.map((s) => /id="(chart-[a-z]+)/.exec(s)![1])).toEqual([
      'chart-position',
      'chart-reviewers',
      'chart-length',
      'chart-trend',
      'chart-affinity',
    ]);
    for (const svg of svgs) expect(svg).toMatch(/class="mark/);
    // Four positions, four reviewers: one interval group each.
    expect(svgs[0]!.match(/class="mark interval/g)).toHaveLength(4);
    expect(svgs[1]!.match(/class="mark interval/g)).toHaveLength(4);
    // 200 points and a fit line.
    expect(svgs[2]!.match(/class="mark point"/g)).toHaveLength(200);
    expect(svgs[2]).toContain('class="mark fit"');
    // 4 × 4 matrix with the diagonal outlined; a missing cell shows a dash.
    expect(svgs[4]!.match(/class="mark cell/g)).toHaveLength(16);
    expect(svgs[4]!.match(/class="mark cell self"/g)).toHaveLength(4);
    expect(svgs[4]).toContain('sim/beta → sim/gamma: no scores');
  });

  it('shades the margin and emphasises only the intervals beyond it', () => {
    const svg = charts(renderHtmlReport(sampleReportData()))[0]!;
    // Margin ±0.1: A [0.2, 0.64] lies beyond it; D [−0.5, −0.04] excludes 0 but reaches into the band; B and C straddle 0.
    expect(svg).toContain('<rect class="margin"');
    expect(svg.match(/class="mark interval excludes"/g)).toHaveLength(1);
    // Without a margin, beyond the band is beyond 0: A and D.
    const bare = charts(renderHtmlReport(sampleReportData({ margins: { position: 0, reviewerOffset: 0 } })))[0]!;
    expect(bare).not.toContain('class="margin"');
    expect(bare.match(/class="mark interval excludes"/g)).toHaveLength(2);
  });

  it('shows the within-session length slope, its r, and the between-session figure as an unflagged association', () => {
    const html = renderHtmlReport(sampleReportData());
    expect(html).toContain(
      'Within sessions, each 1,000 more characters go with 0.620 score points, 95% interval [0.410, 0.830] over 41 sessions (r = 0.310).',
    );
    expect(html).toContain('Between sessions, −0.900 points per 1,000 characters [−1.600, −0.200]: an association');
    expect(html).toContain('never flagged');
    expect(html).toContain(
      '<td>between sessions, points per 1,000 characters (association, not flagged)</td><td class="num">−0.900</td>',
    );
    // The summary table gives each figure's margin: the slope flags beyond ±0.05.
    expect(html).toMatch(
      /<td>length: points per 1,000 characters, within sessions<\/td>(<td class="num">[^<]*<\/td>){4}<td class="num">&lt; 0\.001<\/td><td class="num">±0\.05<\/td>/,
    );
  });

  it('labels simulated data at the top, and says nothing of it for real data', () => {
    expect(renderHtmlReport(sampleReportData())).toContain('SIMULATED DATA');
    expect(renderHtmlReport(sampleReportData({ simulated: false }))).not.toMatch(/simulated/i);
  });

  it('shows "Collecting data…" and no chart below 10 sessions, and the volatility warning below 20', () => {
    const few = renderHtmlReport(sampleReportData({ sessions: 6, confidence: 'insufficient_data' }));
    expect(few).toContain('Collecting data…');
    expect(few).toContain('6 of the 10 sessions');
    expect(charts(few)).toHaveLength(0);
    const some = renderHtmlReport(sampleReportData({ sessions: 14, confidence: 'preliminary' }));
    expect(some).toContain('High volatility:</strong> only 14 sessions');
    expect(charts(some)).toHaveLength(5);
  });

  it('escapes model ids, so a hostile id cannot inject markup', () => {
    const data = sampleReportData();
    const html = renderHtmlReport({
      ...data,
      affinity: { ...data.affinity, reviewers: ['<img src=x onerror=alert(1)>', ...data.affinity.reviewers.slice(1)] },
    });
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
