// How a reviewer's offset and its affinity for one author separate as the council grows (issue 29 item 2): m
// members each score the other m − 1 answers (C = m − 1 authors a reviewer), model-0 gives model-1 1.5 points more
// and is fair to the rest; otherwise issue 29's council (noise SD 0.8, 1–10, 3,000 ± 1,000 characters). Per m: the
// mean of model-0's offset (truth 0) and of the affinity model-0→model-1 (truth 1.5), how often their intervals
// cover the truth, and how often GENEROUS_REVIEWER(model-0) and REVIEWER_AFFINITY(model-0→model-1) are raised.
//
//   pnpm --filter @council/bias-audit exec tsx study/run-affinity-council-size.ts [runs=40] [sessions=300]
//
// Seeds: 29,990,000 + 1,000·m + run (the simulation) and run (the report's resampling; Wald tests, resamples 0).
import { aggregateBiasAudit } from '../src/aggregate-bias-audit.js';
import { simulateMessyCouncils } from '../src/study/simulate-messy-councils.js';

const runs = Number(process.argv[2] ?? 40);
const sessions = Number(process.argv[3] ?? 300);
const window = { now: '2100-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
for (const m of [3, 4, 5, 7]) {
  const tally = { n: 0, offset: 0, offsetCovers: 0, affinity: 0, affinityCovers: 0, generous: 0, flagged: 0, other: 0 };
  for (let run = 0; run < runs; run++) {
    const data = simulateMessyCouncils({
      models: m,
      reviewers: m,
      reviewerNoise: 0.8,
      selfReview: false,
      lengthChars: { mean: 3000, sd: 1000 },
      scale: { min: 1, max: 10 },
      affinity: [{ reviewer: 0, candidate: 1, points: 1.5 }],
      sessions,
      seed: 29_990_000 + 1000 * m + run,
    });
    const report = aggregateBiasAudit(data, { resamples: 0, minSessions: 10, seed: run, window });
    const offset = report.reviewers.find((r) => r.reviewer === 'model-0')?.offset;
    const affinity = report.affinity.find((f) => f.metric === 'affinity[model-0→model-1]');
    if (offset?.estimate == null || affinity?.estimate == null) continue;
    tally.n++;
    tally.offset += offset.estimate;
    tally.affinity += affinity.estimate;
    if (offset.ciLower! <= 0 && 0 <= offset.ciUpper!) tally.offsetCovers++;
    if (affinity.ciLower! <= 1.5 && 1.5 <= affinity.ciUpper!) tally.affinityCovers++;
    const planted = (f: { code: string; subject: string | null }): boolean =>
      f.code === 'REVIEWER_AFFINITY' && f.subject === 'model-0→model-1';
    if (report.flags.some((f) => f.code === 'GENEROUS_REVIEWER' && f.subject === 'model-0')) tally.generous++;
    if (report.flags.some(planted)) tally.flagged++;
    if (report.flags.some((f) => !planted(f))) tally.other++;
  }
  const share = (x: number): string => `${((100 * x) / tally.n).toFixed(1)}%`;
  console.log(
    `m = ${m} (C = ${m - 1}), ${tally.n} runs × ${sessions} sessions: model-0's offset ${(tally.offset / tally.n).toFixed(3)}` +
      ` (covers 0: ${share(tally.offsetCovers)}; GENEROUS ${share(tally.generous)}); affinity model-0→model-1` +
      ` ${(tally.affinity / tally.n).toFixed(3)} (covers 1.5: ${share(tally.affinityCovers)}; flagged ${share(tally.flagged)});` +
      ` any other flag ${share(tally.other)}`,
  );
}
