import type { HtmlReportData } from '../html/html-report-data.js';

/** A hand-built report with every section populated, for renderer and browser tests. */
export function sampleReportData(overrides: Partial<HtmlReportData> = {}): HtmlReportData {
  const reviewers = ['sim/alpha', 'sim/beta', 'sim/gamma', 'sim/delta'];
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < 200; i++) points.push({ x: 400 + ((i * 37) % 1600), y: 4 + ((i * 13) % 50) / 10 });
  return {
    title: 'Council bias report',
    generatedAt: '2026-11-22T12:00:00Z',
    source: '/tmp/bias_metrics.jsonl',
    simulated: true,
    sessions: 41,
    observations: 41 * 16,
    windowStart: '2026-11-01T00:00:00Z',
    windowEnd: '2026-11-22T00:00:00Z',
    confidence: 'moderate',
    metrics: [
      {
        metric: 'length_slope_per_1000_chars',
        estimate: 0.62,
        ciLower: 0.41,
        ciUpper: 0.83,
        sampleSize: 164,
        sessions: 41,
        confidence: 'moderate',
        pValue: 0.0001,
        margin: 0.05,
        flagged: true,
      },
      {
        metric: 'position_effect[0]',
        estimate: 0.42,
        ciLower: 0.2,
        ciUpper: 0.64,
        sampleSize: 41,
        sessions: 41,
        confidence: 'moderate',
        pValue: 0.002,
        margin: 0.1,
        flagged: true,
      },
    ],
    margins: { position: 0.1, reviewerOffset: 0.25 },
    positionEffects: [
      { label: 'A (1st)', estimate: 0.42, ciLower: 0.2, ciUpper: 0.64, n: 164 },
      { label: 'B (2nd)', estimate: 0.05, ciLower: -0.15, ciUpper: 0.25, n: 164 },
      { label: 'C (3rd)', estimate: -0.2, ciLower: -0.41, ciUpper: 0.01, n: 164 },
      { label: 'D (4th)', estimate: -0.27, ciLower: -0.5, ciUpper: -0.04, n: 164 },
    ],
    reviewerOffsets: reviewers.map((r, i) => ({
      label: r,
      estimate: [-0.9, 0.1, 0.3, 0.5][i]!,
      ciLower: [-1.2, -0.2, 0, 0.2][i]!,
      ciUpper: [-0.6, 0.4, 0.6, 0.8][i]!,
      n: 164,
      highlight: i === 0,
    })),
    lengthVsScore: {
      points,
      total: 164,
      slope: {
        metric: 'length_slope_per_1000_chars',
        estimate: 0.62,
        ciLower: 0.41,
        ciUpper: 0.83,
        sampleSize: 164,
        sessions: 41,
        confidence: 'moderate',
        margin: 0.05,
      },
      correlation: {
        metric: 'length_score_correlation',
        estimate: 0.31,
        ciLower: 0.21,
        ciUpper: 0.4,
        sampleSize: 164,
        sessions: 41,
        confidence: 'moderate',
      },
      betweenSessions: {
        metric: 'length_between_sessions_per_1000_chars',
        estimate: -0.9,
        ciLower: -1.6,
        ciUpper: -0.2,
        sampleSize: 41,
        sessions: 41,
        confidence: 'moderate',
      },
    },
    trends: [
      {
        metric: 'length_score_correlation',
        points: [0, 1, 2, 3].map((w) => ({
          at: `2026-11-${String(10 + w * 4).padStart(2, '0')}T00:00:00Z`,
          estimate: 0.25 + w * 0.02,
          ciLower: 0.05 + w * 0.03,
          ciUpper: 0.45 + w * 0.01,
        })),
      },
    ],
    affinity: {
      reviewers,
      candidates: reviewers,
      values: reviewers.map((r, i) =>
        reviewers.map((c, j) => (i === j ? 0.8 : i === 1 && j === 2 ? null : (i - j) / 10)),
      ),
    },
    notes: ['sim/alpha gives its own answer 0.8 points more than the other reviewers do (self-preference).'],
    ...overrides,
  };
}
