import { runBiasAudit, summarizeSession } from '@council/bias-audit';
import type { BiasAuditResult, BiasAuditThresholds } from '@council/bias-audit';
import type { CouncilBiasIndicators, Stage1Result, Stage2Result } from './council-session.js';

export interface AuditSessionBiasOptions {
  stage1: readonly Stage1Result[];
  stage2: readonly Stage2Result[];
  /** Stage 1's answers by member id. */
  answers: ReadonlyMap<string, string>;
  thresholds: BiasAuditThresholds | undefined;
}

export interface SessionBias {
  biasAudit: BiasAuditResult | null;
  biasIndicators: CouncilBiasIndicators | null;
  warnings: string[];
}

/**
 * The per-session bias audit (ADR-015) over the reviews that scored, each answer's position taken from
 * the order its reviewer saw (ADR-017), and ADR-018's indicators with `SUSPECTED_INJECTION` added when
 * an answer looked like an injection. An audit that cannot run leaves the indicators null, with a warning.
 */
export function auditSessionBias(options: AuditSessionBiasOptions): SessionBias {
  const { stage1, stage2, answers, thresholds } = options;
  const scores: Record<string, Record<string, number | null>> = {};
  const positions: Record<string, Record<string, number>> = {};
  for (const review of stage2) {
    if (!review.evaluation || review.evaluation.abstained) continue;
    scores[review.reviewer] = Object.fromEntries(review.order.map((c) => [c, review.evaluation!.scores[c] ?? null]));
    positions[review.reviewer] = Object.fromEntries(review.order.map((c, index) => [c, index]));
  }
  let biasAudit: BiasAuditResult | null = null;
  try {
    biasAudit = runBiasAudit(
      { responses: [...answers].map(([candidate, text]) => ({ candidate, text })), scores, positions },
      thresholds,
    );
    const summary = summarizeSession(biasAudit);
    const flags: CouncilBiasIndicators['flags'] = stage1.some((s) => s.suspectedInjection)
      ? [...summary.flags, 'SUSPECTED_INJECTION']
      : [...summary.flags];
    return { biasAudit, biasIndicators: { ...summary, flags }, warnings: [] };
  } catch (error) {
    return {
      biasAudit,
      biasIndicators: null,
      warnings: [`The bias audit could not run: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
}
