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
 * hypothesis passes on only its own share. A rejected hypothesis is a flag, except a negative
 * self-preference (modesty is not the bias SELF_PREFERENCE names); the position family raises one flag,
 * carried by its largest rejected effect. No flag below the minimum number of sessions.
 */
export function biasFlags(families: readonly HypothesisFamily[], rule: { alpha: number; meetsMinimum: boolean }): { tests: FamilyTest[]; flags: AggregateBiasFlag[] } {
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
  const tests: FamilyTest[] = present.map((f, i) => ({
    family: f.family,
    pValue: Math.min(1, f.hypotheses.length * Math.min(...all.filter((item) => item.family === i).map((item) => item.p))),
    hypotheses: f.hypotheses.length,
    adjustedPValue: familyAdjusted[i]!,
    rejected: rule.meetsMinimum && familyAdjusted[i]! <= rule.alpha,
  }));
  const flags: AggregateBiasFlag[] = [];
  let position: AggregateBiasFlag | null = null;
  all.forEach(({ h, p }, i) => {
    if (!rule.meetsMinimum || adjusted[i]! > rule.alpha) return;
    if (h.code === 'SELF_PREFERENCE' && h.estimate <= 0) return;
    const flag: AggregateBiasFlag = {
      code: h.code,
      subject: h.subject,
      metric: h.figure.metric,
      estimate: h.estimate,
      ciLower: h.figure.ciLower ?? Number.NaN,
      ciUpper: h.figure.ciUpper ?? Number.NaN,
      margin: h.margin,
      pValue: p,
      adjustedPValue: adjusted[i]!,
    };
    if (h.code !== 'POSITION_BIAS_DETECTED') flags.push(flag);
    else if (position === null || Math.abs(flag.estimate) > Math.abs(position.estimate)) position = flag;
  });
  if (position !== null) flags.push(position);
  return { tests, flags };
}
