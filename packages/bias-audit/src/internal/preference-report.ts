import type { BiasMetricReport } from '../bias-metric-report.js';
import type { ScoreModelEffect } from '../fit-score-model.js';
import type { HypothesisFamily, MarginHypothesis } from './bias-flags.js';
import { notEstimableFigure } from './position-report.js';
import type { ReportContext } from './report-context.js';

/**
 * Step 6 of `aggregateBiasAudit`: self-preference and affinity from the score model (by subject), and anchoring
 * across sessions; a family each.
 */
export function preferenceReport(
  context: ReportContext,
  position: { notEstimable: string | null } = { notEstimable: null },
): {
  selfPreference: BiasMetricReport[];
  affinity: BiasMetricReport[];
  anchoring: BiasMetricReport;
  families: HypothesisFamily[];
} {
  const { fit, indicators, margins } = context;
  const { fromModel, fromT, hypothesis, tHypothesis } = context.figures;
  const families: HypothesisFamily[] = [];
  const bySubject = (a: { subject: string }, b: { subject: string }): number =>
    a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0;
  fit.selfPreference.sort(bySubject);
  fit.affinity.sort(bySubject);
  // A score-model effect's family: a figure per subject (`<family>[<subject>]`), and the hypothesis of each.
  const modelFamily = (spec: {
    family: HypothesisFamily['family'];
    code: MarginHypothesis['code'];
    effects: readonly ScoreModelEffect[];
    intervalMethod: string;
    margin: number;
  }): BiasMetricReport[] => {
    const { family, code, effects, intervalMethod, margin } = spec;
    const figures = effects.map((e) =>
      fromModel({ metric: `${family}[${e.subject}]`, fit: e, unit: 'scores', intervalMethod, margin }),
    );
    families.push({
      family,
      hypotheses: effects.flatMap((e, j) =>
        hypothesis({ code, subject: e.subject, figure: figures[j]!, standardError: e.standardError, df: e.df, margin }),
      ),
    });
    return figures;
  };
  const selfPreference = modelFamily({
    family: 'self_preference',
    code: 'SELF_PREFERENCE',
    effects: fit.selfPreference,
    intervalMethod: 'cluster_cr1_t',
    margin: margins.selfPreference,
  });
  const affinity = modelFamily({
    family: 'affinity',
    code: 'REVIEWER_AFFINITY',
    effects: fit.affinity,
    intervalMethod: 'cluster_influence_t',
    margin: margins.affinity,
  });
  const anchoringFigure = fromT({ metric: 'anchoring', values: indicators.anchoringValues, margin: margins.anchoring });
  // Anchoring reads display position: where position is not estimable (fixed by author, sorted by length), neither is it.
  const anchoring =
    position.notEstimable === null ? anchoringFigure : notEstimableFigure(anchoringFigure, position.notEstimable);
  families.push({
    family: 'anchoring',
    hypotheses: tHypothesis({ code: 'ANCHORING', subject: null, figure: anchoring, margin: margins.anchoring }),
  });
  return { selfPreference, affinity, anchoring, families };
}
