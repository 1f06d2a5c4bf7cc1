import type { AggregateBiasFlag, FamilyTest, ReviewerProfile } from '../bias-aggregate-report.js';
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

/**
 * REVIEWER_DRIFT, one per reviewer whose offset changed within the window (`ReviewerProfile.drift`). The change was
 * already found by the drift family's test: Holm over the reviewers tested within the family's share of alpha
 * (`share`, kept beside the weighted Holm of `biasFlags`), its step's interval at level 1 − share beyond ±margin. The
 * flag's adjusted p is that Holm p scaled to the whole alpha (times alpha / share, capped at 1), so it reads against
 * alpha as every flag's does; it also needs the change figure's own interval (at the report's level) beyond its
 * margin, and the figure's sessions (both periods) to meet `minSessions`, else the figure is marked `flagWithheld`.
 * Mutates those figures; returns the flags in the reviewers' order.
 */
export function driftFlags(
  reviewers: readonly ReviewerProfile[],
  rule: { alpha: number; share: number; minSessions: number },
): AggregateBiasFlag[] {
  const flags: AggregateBiasFlag[] = [];
  for (const { reviewer, drift } of reviewers) {
    if (drift === undefined) continue;
    const figure = drift.change;
    const { estimate, ciLower, ciUpper, margin } = figure;
    if (estimate === null || ciLower === null || ciUpper === null || margin === undefined) continue;
    if (!(ciLower > margin || ciUpper < -margin)) continue;
    const adjustedPValue = Math.min(1, (drift.adjustedPValue * rule.alpha) / rule.share);
    if (adjustedPValue > rule.alpha * (1 + 1e-12)) continue;
    if (figure.sessions < rule.minSessions) {
      figure.flagWithheld = { code: 'REVIEWER_DRIFT', minSessions: rule.minSessions };
      continue;
    }
    flags.push({
      code: 'REVIEWER_DRIFT',
      subject: reviewer,
      metric: figure.metric,
      estimate,
      ciLower,
      ciUpper,
      margin,
      pValue: drift.pValue,
      adjustedPValue,
    });
  }
  return flags;
}
