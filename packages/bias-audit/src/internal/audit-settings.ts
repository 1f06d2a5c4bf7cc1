import { BiasAuditError } from '../bias-audit-error.js';
import type { AggregateBiasAuditOptions } from '../aggregate-bias-audit-options.js';
import { DEFAULT_BIAS_MARGINS } from '../aggregate-bias-audit-options.js';
import type { BiasMargins } from '../bias-aggregate-report.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import { assertLevel } from './assert.js';

/** `aggregateBiasAudit`'s options other than the window, checked, with their defaults. */
export interface AuditSettings {
  minSessions: number;
  level: number;
  alpha: number;
  seed: number;
  margins: BiasMargins;
  /** As given: its default depends on the sessions in the window. */
  resamples: number | undefined;
  trendWindow: number;
  anomalyThreshold: number;
}

function invalidOption(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_OPTION', message });
}

function checkCount(value: number, name: string, limits: { allowInfinite: boolean; min: number }): number {
  const { allowInfinite, min } = limits;
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value < min ||
    (!Number.isInteger(value) && !(allowInfinite && value === Number.POSITIVE_INFINITY))
  ) {
    throw invalidOption(
      `${name} must be an integer of at least ${min}${allowInfinite ? ' (or Infinity)' : ''}, got ${String(value)}.`,
    );
  }
  return value;
}

function resolveMargins(given: Partial<BiasMargins> | undefined): BiasMargins {
  const margins: BiasMargins = { ...DEFAULT_BIAS_MARGINS };
  if (given === undefined) return margins;
  if (typeof given !== 'object' || given === null)
    throw invalidOption('margins must be an object such as { reviewerOffset: 0.5 }.');
  for (const [name, value] of Object.entries(given)) {
    if (!(name in margins))
      throw invalidOption(`margins.${name} is not a family; use one of ${Object.keys(margins).join(', ')}.`);
    if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value))
      throw invalidOption(
        `margins.${name} must be a finite number of at least 0 (in the figure's own units), got ${String(value)}.`,
      );
    margins[name as keyof BiasMargins] = value;
  }
  return margins;
}

/** Checks `aggregateBiasAudit`'s options other than the window; throws `INVALID_OPTION` naming the first bad one. */
export function resolveAuditSettings(options: AggregateBiasAuditOptions): AuditSettings {
  const minSessions = checkCount(options.minSessions ?? 20, 'minSessions', { allowInfinite: false, min: 1 });
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const alpha = options.alpha ?? 0.05;
  assertLevel(alpha, 'alpha');
  const seed = options.seed ?? 1;
  createSeededSfc32(seed); // validates the seed
  const margins = resolveMargins(options.margins);
  if (options.resamples !== undefined) {
    checkCount(options.resamples, 'resamples', { allowInfinite: false, min: 0 });
    if (options.resamples > 0 && options.resamples < 20)
      throw invalidOption(`resamples must be 0 (the asymptotic test) or at least 20, got ${options.resamples}.`);
  }
  const trendWindow = checkCount(options.trendWindowSessions ?? 10, 'trendWindowSessions', {
    allowInfinite: false,
    min: 2,
  });
  const anomalyThreshold = options.anomalyThreshold ?? 3.5;
  if (typeof anomalyThreshold !== 'number' || !(anomalyThreshold > 0))
    throw invalidOption(`anomalyThreshold must be a positive number of robust SDs, got ${String(anomalyThreshold)}.`);
  return {
    minSessions,
    level,
    alpha,
    seed,
    margins,
    resamples: options.resamples,
    trendWindow,
    anomalyThreshold,
  };
}
