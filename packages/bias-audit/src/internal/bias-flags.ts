import type { AggregateBiasFlag, FamilyTest } from '../bias-aggregate-report.js';
import type { BiasMetricReport } from '../bias-metric-report.js';
import { marginPValue } from './margin-test.js';
import { weightedHolmAdjust } from './weighted-holm.js';

/** One hypothesis "this effect lies within ±margin", with the t behind its figure's interval. */
export interface MarginHypothesis {
  code: AggregateBiasFlag['code'];
  subject: string | null;
  figure: BiasMetricReport;
  estimate: number;
  standardError: number;
  df: number;
  margin: number;
}

export interface HypothesisFamily {
  family: FamilyTest['family'];
  hypotheses: MarginHypothesis[];
}

/**
 * Weighted Holm (Holm 1979, weighted form) over every hypothesis of every family, weight 1/(families ·
 * family size): each family gets an equal share of alpha, split evenly among its hypotheses, and a rejected
 * hypothesis passes on only its own share. A rejected hypothesis whose interval (at the report's level) also
 * lies beyond its margin is a flag — the second condition only matters when alpha·weight exceeds
 * 1 − level, e.g. at level 0.99 — except a negative self-preference (modesty is not the bias SELF_PREFERENCE
 * names). The position family raises one flag, carried by its largest rejected score effect (rank points,
 * on another scale, only where no score effect is rejected). A flag needs its own figure to meet the minimum:
 * a hypothesis whose figure has fewer than `minSessions` sessions (however many the window has) raises none and
 * is returned in `withheld` when it would otherwise have raised one. A family's `rejected` says whether it
 * raised a flag.
 */
export function biasFlags(
  families: readonly HypothesisFamily[],
  rule: { alpha: number; minSessions: number },
): { tests: FamilyTest[]; flags: AggregateBiasFlag[]; withheld: MarginHypothesis[] } {
  const present = families.filter((f) => f.hypotheses.length > 0);
  const all = present.flatMap((f, i) =>
    f.hypotheses.map((h) => ({ h, family: i, weight: 1 / (present.length * f.hypotheses.length), p: marginPValue(h) })),
  );
  const adjusted = weightedHolmAdjust(
    all.map((item) => item.p),
    all.map((item) => item.weight),
  );
  const familyAdjusted = present.map(() => 1);
  all.forEach((item, i) => (familyAdjusted[item.family] = Math.min(familyAdjusted[item.family]!, adjusted[i]!)));
  const flags: AggregateBiasFlag[] = [];
  const withheld: MarginHypothesis[] = [];
  const flaggedFamilies = new Set<number>();
  const position: { best: { flag: AggregateBiasFlag; ranks: boolean } | null } = { best: null };
  all.forEach(({ h, p, family }, i) => {
    if (adjusted[i]! > rule.alpha) return;
    if (h.code === 'SELF_PREFERENCE' && h.estimate <= 0) return;
    const { ciLower, ciUpper } = h.figure;
    if (ciLower === null || ciUpper === null || !(ciLower > h.margin || ciUpper < -h.margin)) return;
    if (h.figure.sessions < rule.minSessions) {
      withheld.push(h);
      return;
    }
    flaggedFamilies.add(family);
    const flag: AggregateBiasFlag = {
      code: h.code,
      subject: h.subject,
      metric: h.figure.metric,
      estimate: h.estimate,
      ciLower,
      ciUpper,
      margin: h.margin,
      pValue: p,
      adjustedPValue: adjusted[i]!,
    };
    if (h.code !== 'POSITION_BIAS_DETECTED') {
      flags.push(flag);
      return;
    }
    const ranks = h.figure.metric.startsWith('rank_');
    const best = position.best;
    if (
      best === null ||
      (best.ranks && !ranks) ||
      (best.ranks === ranks && Math.abs(flag.estimate) > Math.abs(best.flag.estimate))
    )
      position.best = { flag, ranks };
  });
  if (position.best !== null) flags.push(position.best.flag);
  const tests: FamilyTest[] = present.map((f, i) => ({
    family: f.family,
    pValue: Math.min(
      1,
      f.hypotheses.length * Math.min(...all.filter((item) => item.family === i).map((item) => item.p)),
    ),
    hypotheses: f.hypotheses.length,
    adjustedPValue: familyAdjusted[i]!,
    rejected: flaggedFamilies.has(i),
  }));
  return { tests, flags, withheld };
}
