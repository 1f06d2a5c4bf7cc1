import { BiasStoreError } from './bias-store-error.js';

/**
 * ADR-018's unified consent levels (aligned with council-cloud ADR-001).
 *
 * | level | name | local storage | cloud transmission |
 * | --- | --- | --- | --- |
 * | 0 | OFF | disabled | disabled |
 * | 1 | LOCAL_ONLY (default) | enabled | disabled |
 * | 2 | ANONYMOUS | enabled | rankings only |
 * | 3 | ENHANCED | enabled | rankings + bias summary |
 * | 4 | RESEARCH | enabled | + query hashes |
 */
export const ConsentLevel = {
  OFF: 0,
  LOCAL_ONLY: 1,
  ANONYMOUS: 2,
  ENHANCED: 3,
  RESEARCH: 4,
} as const;

/** A consent level: 0 OFF, 1 LOCAL_ONLY, 2 ANONYMOUS, 3 ENHANCED, 4 RESEARCH. */
export type ConsentLevel = (typeof ConsentLevel)[keyof typeof ConsentLevel];

/** The name of each level, indexed by the level. */
export const consentLevelNames: readonly ['OFF', 'LOCAL_ONLY', 'ANONYMOUS', 'ENHANCED', 'RESEARCH'] = [
  'OFF',
  'LOCAL_ONLY',
  'ANONYMOUS',
  'ENHANCED',
  'RESEARCH',
];

const acceptedConsentValues =
  '0 (OFF), 1 (LOCAL_ONLY), 2 (ANONYMOUS), 3 (ENHANCED) or 4 (RESEARCH); the names are accepted in any case';

/** True for the integers 0 to 4. */
export function isConsentLevel(value: unknown): value is ConsentLevel {
  return value === 0 || value === 1 || value === 2 || value === 3 || value === 4;
}

/**
 * Reads a consent level from text: a digit 0–4 or a level name (`off`, `LOCAL_ONLY`, `local-only`…).
 * Returns the error instead of throwing.
 */
export function safeParseConsentLevel(
  text: string,
): { success: true; value: ConsentLevel } | { success: false; error: BiasStoreError } {
  const trimmed = text.trim();
  if (/^[0-4]$/.test(trimmed)) return { success: true, value: Number(trimmed) as ConsentLevel };
  const index = (consentLevelNames as readonly string[]).indexOf(trimmed.toUpperCase().replace(/[-\s]/g, '_'));
  if (index >= 0) return { success: true, value: index as ConsentLevel };
  return {
    success: false,
    error: new BiasStoreError({
      code: 'INVALID_CONFIG',
      message: `${JSON.stringify(trimmed.slice(0, 40))} is not a consent level; use ${acceptedConsentValues}.`,
    }),
  };
}

/** Reads a consent level from text (see `safeParseConsentLevel`); throws a `BiasStoreError` (`INVALID_CONFIG`). */
export function parseConsentLevel(text: string): ConsentLevel {
  const result = safeParseConsentLevel(text);
  if (!result.success) throw result.error;
  return result.value;
}

/** @internal the accepted-values sentence, shared with the configuration loader. */
export const consentAcceptedValues: string = acceptedConsentValues;
