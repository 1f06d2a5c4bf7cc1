import type { BiasSessionSummaries } from '@council/bias-audit';
import { assertBiasSessionSummaries } from '@council/bias-audit';
import { expect } from 'vitest';

/** The first path where two values differ (`Object.is`, so 0 and -0 differ too), or null. */
export function firstDifference(actual: unknown, expected: unknown, where: string): string | null {
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null)
    return Object.is(actual, expected) ? null : `${where}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`;
  const keys = Object.keys(expected);
  if (JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys))
    return `${where}: keys ${JSON.stringify(Object.keys(actual))} ≠ ${JSON.stringify(keys)}`;
  for (const key of keys) {
    const found = firstDifference(
      (actual as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
      `${where}.${key}`,
    );
    if (found !== null) return found;
  }
  return null;
}

/**
 * An engine's summaries equal to the bit to the JS map's: valid, the first differing path named (which says more
 * than two long texts), then the same JSON text.
 */
export function expectSameSummaries(actual: BiasSessionSummaries, expected: BiasSessionSummaries): void {
  assertBiasSessionSummaries(actual);
  expect(firstDifference(actual, expected, 'summaries')).toBeNull();
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}
