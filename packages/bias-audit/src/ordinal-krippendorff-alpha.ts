import { ordinalAlpha } from '@council/scoring';
import type { KrippendorffAlphaResult } from '@council/scoring';
import { BiasAuditError } from './bias-audit-error.js';

/**
 * `ordinalKrippendorffAlpha`'s answer: `@council/scoring`'s `KrippendorffAlphaResult` marked computable,
 * or why α cannot be computed, with the same counts.
 */
export type ReviewerAgreement =
  | ({ computable: true } & KrippendorffAlphaResult)
  | { computable: false; reason: string; pairableUnits: number; pairableValues: number };

/**
 * Krippendorff's α with the ordinal metric, for ratings given as `{ coder: { unit: value } }` (a
 * reviewer's scores of candidates; null or absent = not rated): the values are grouped by unit and
 * handed to `@council/scoring`'s `ordinalAlpha` (Krippendorff 2011, "Computing Krippendorff's
 * alpha-reliability"). Never throws for data that merely carries no agreement information.
 */
export function ordinalKrippendorffAlpha(
  ratings: Readonly<Record<string, Readonly<Record<string, number | null>>>>,
): ReviewerAgreement {
  if (typeof ratings !== 'object' || ratings === null) {
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message: 'ratings must be an object of the form { coder: { unit: value } }.',
    });
  }
  const byUnit = new Map<string, number[]>();
  for (const [coder, row] of Object.entries(ratings)) {
    for (const [unit, value] of Object.entries(row ?? {})) {
      if (value === null || value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new BiasAuditError({
          code: 'INVALID_INPUT',
          message: `The value ${coder} gave ${unit} is ${String(value)}; values must be finite numbers, or null when not rated.`,
        });
      }
      const list = byUnit.get(unit);
      if (list) list.push(value);
      else byUnit.set(unit, [value]);
    }
  }
  const result = ordinalAlpha([...byUnit.values()]);
  if (result.alpha !== null) return { computable: true, ...result };
  const { pairableUnits, pairableValues } = result;
  const reason =
    pairableUnits === 0
      ? 'no candidate was scored by two or more reviewers'
      : 'every score is the same value, so disagreement expected by chance is zero';
  return { computable: false, reason, pairableUnits, pairableValues };
}
