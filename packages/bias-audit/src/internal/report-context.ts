import type { BiasMargins } from '../bias-aggregate-report.js';
import type { ScoreModelFit } from '../fit-score-model.js';
import type { ReportFigures } from './report-figures.js';
import type { SessionIndicators } from './session-indicators.js';

/** What every step of the report after the fit reads: the score model, the per-session indicators, the figure builders. */
export interface ReportContext {
  fit: ScoreModelFit;
  indicators: SessionIndicators;
  figures: ReportFigures;
  margins: BiasMargins;
  level: number;
}
