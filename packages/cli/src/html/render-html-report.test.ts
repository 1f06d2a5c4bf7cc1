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
    expect(svgs.map((s) => /id="(chart-[a-z]+)/.exec(s)![1])).toEqual(['chart-position', 'chart-harshness', 'chart-length', 'chart-trend', 'chart-affinity']);
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

  it('emphasises intervals that exclude zero and only those', () => {
    const svg = charts(renderHtmlReport(sampleReportData()))[0]!;
    // A [0.2, 0.64] and D [−0.5, −0.04] exclude 0; B and C do not.
    expect(svg.match(/class="mark interval excludes"/g)).toHaveLength(2);
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
    const html = renderHtmlReport({ ...data, affinity: { ...data.affinity, reviewers: ['<img src=x onerror=alert(1)>', ...data.affinity.reviewers.slice(1)] } });
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
