import type { BiasMetricReport } from '../bias-metric-report.js';
import type { HypothesisFamily } from './bias-flags.js';
import type { ReportContext } from './report-context.js';

/**
 * Step 6 of `aggregateBiasAudit`: self-preference and affinity from the score model (by subject), and anchoring
 * across sessions; a family each.
 */
export function preferenceReport(context: ReportContext): {
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
  const selfPreference = fit.selfPreference.map((e) =>
    fromModel({
      metric: `self_preference[${e.subject}]`,
      fit: e,
      unit: 'scores',
      intervalMethod: 'cluster_cr1_t',
      margin: margins.selfPreference,
    }),
  );
  families.push({
    family: 'self_preference',
    hypotheses: fit.selfPreference.flatMap((e, j) =>
      hypothesis({
        code: 'SELF_PREFERENCE',
        subject: e.subject,
        figure: selfPreference[j]!,
        standardError: e.standardError,
        df: e.df,
        margin: margins.selfPreference,
      }),
    ),
  });
  const affinity = fit.affinity.map((e) =>
    fromModel({
      metric: `affinity[${e.subject}]`,
      fit: e,
      unit: 'scores',
      intervalMethod: 'cluster_influence_t',
      margin: margins.affinity,
    }),
  );
  families.push({
    family: 'affinity',
    hypotheses: fit.affinity.flatMap((e, j) =>
      hypothesis({
        code: 'REVIEWER_AFFINITY',
        subject: e.subject,
        figure: affinity[j]!,
        standardError: e.standardError,
        df: e.df,
        margin: margins.affinity,
      }),
    ),
  });
  const anchoring = fromT({ metric: 'anchoring', values: indicators.anchoringValues, margin: margins.anchoring });
  families.push({
    family: 'anchoring',
    hypotheses: tHypothesis({ code: 'ANCHORING', subject: null, figure: anchoring, margin: margins.anchoring }),
  });
  return { selfPreference, affinity, anchoring, families };
}
