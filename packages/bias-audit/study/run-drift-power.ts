// Issue 29, helper HL: how often the report states a drift test's blind spot (`reviewers[].driftPower`), and how
// large it is, in issue 29's drift shapes (the study's own stores: run i of a scenario has seed `seed + i`).
//   npx tsx study/run-drift-power.ts drift-20,drift-config-20,drift-50,drift-config-50 1000
// Per scenario, one JSON line for model-0 (the reviewer that changes) and the others: found (`drift` present),
// warned (`driftPower` present, with D's median and 10th/90th percentiles and how many above 1 point), neither.
// A line before it gives D for every reviewer the test reads, stated or not (`driftBlindSpots` on the store's
// columns, series not levelled by the offsets, alpha 0.05/8 standing in for the drift family's share, which
// depends on the report's flag families): its median and how many above 1 point (and 0.5 for the others).
import { aggregateBiasAudit } from '../src/aggregate-bias-audit.js';
import { observationsToColumns } from '../src/observations-to-columns.js';
import { driftBlindSpots } from '../src/internal/reviewer-drift-report.js';
import { ISSUE_29_SCENARIOS } from '../src/study/issue-29-scenarios.js';
const names = (process.argv[2] ?? 'drift-20,drift-50').split(',');
const runs = Number(process.argv[3] ?? 200);
for (const name of names) {
  const sc = ISSUE_29_SCENARIOS.find((s) => s.name === name)!;
  let found0 = 0,
    warned0 = 0,
    dOver1 = 0,
    neither0 = 0,
    warnedOthers = 0,
    othersTotal = 0;
  const ds: number[] = [];
  const all: number[] = [];
  const allOthers: number[] = [];
  for (let i = 0; i < runs; i++) {
    const seed = sc.seed + i;
    const obs = sc.plants!.simulate({ sessions: sc.sessions, seed });
    const r = aggregateBiasAudit(obs, {
      window: { now: '2100-01-01T00:00:00Z', sessions: Infinity, days: Infinity },
      minSessions: 10,
      seed,
    });
    const cols = observationsToColumns(obs);
    const share = 0.05 / 8; // approximate drift share for the raw D distribution
    const spots = driftBlindSpots(cols, { alpha: share, margin: 0.25 });
    for (const [m, sp] of spots) (cols.models[m] === 'model-0' ? all : allOthers).push(sp.undetectableBelow);
    for (const rev of r.reviewers) {
      if (rev.reviewer === 'model-0') {
        if (rev.drift) found0++;
        else if (rev.driftPower) {
          warned0++;
          ds.push(rev.driftPower.undetectableBelow);
          if (rev.driftPower.undetectableBelow > 1) dOver1++;
        } else neither0++;
      } else {
        othersTotal++;
        if (rev.driftPower) warnedOthers++;
      }
    }
  }
  ds.sort((a, b) => a - b);
  const q = (p: number) => (ds.length ? ds[Math.floor(p * (ds.length - 1))]!.toFixed(2) : '-');
  const over = (a: number[], t: number) => a.filter((x) => x > t).length;
  all.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      rawModel0: all.length,
      rawOver1: over(all, 1),
      rawOthersOver1: over(allOthers, 1),
      rawOthers: allOthers.length,
      rawOver05: over(allOthers, 0.5),
      rawMed: all[all.length >> 1]?.toFixed(2),
    }),
  );
  console.log(
    JSON.stringify({
      name,
      runs,
      found0,
      warned0,
      dOver1,
      neither0,
      warnedOthers,
      othersTotal,
      dMedian: q(0.5),
      d10: q(0.1),
      d90: q(0.9),
    }),
  );
}
