import type { BiasSessionSummaries } from '@council/bias-audit';
import { summarizeBiasSessions } from '@council/bias-audit';
import type { BiasRecordColumns } from '@council/bias-store';
import { expect } from 'vitest';
import { expectSameSummaries } from './expect-same-summaries.js';
import { resolvedRecords } from './resolved-records.js';

/** The names `ids` index, in JS's string order (UTF-16 code units): what the engine's name lists must be. */
function usedNames(names: readonly string[], ...ids: Iterable<number>[]): string[] {
  const used = new Set<string>();
  for (const column of ids) for (const id of column) used.add(names[id]!);
  return [...used].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The engine's columns against the reader's columns of the same records: every record with its names resolved, the
 * sessions (ids, earliest times, where each starts), names sorted as JS sorts them and only those used, each array as
 * long as the records; and the JS map of both the same to the bit.
 */
export function expectSameColumns(actual: BiasRecordColumns, expected: BiasRecordColumns): BiasSessionSummaries {
  expect(resolvedRecords(actual)).toEqual(resolvedRecords(expected));
  expect(actual.length).toBe(expected.length);
  expect(actual.sessionIds).toEqual(expected.sessionIds);
  expect(actual.sessionTime).toEqual(expected.sessionTime);
  expect(actual.sessionStart).toEqual(expected.sessionStart);
  const configs = Uint16Array.from(
    expected.configVersion.filter((c) => c > 0),
    (c) => c - 1,
  );
  const categories = Uint16Array.from(
    expected.queryCategory.filter((c) => c > 0),
    (c) => c - 1,
  );
  expect(actual.models).toEqual(usedNames(expected.models, expected.reviewer, expected.candidate));
  expect(actual.configVersions).toEqual(usedNames(expected.configVersions, configs));
  expect(actual.queryCategories).toEqual(usedNames(expected.queryCategories, categories));
  for (const name of [
    'session',
    'reviewer',
    'candidate',
    'position',
    'responseLengthChars',
    'score',
    'rankPosition',
    'time',
    'configVersion',
    'queryCategory',
    'positionIsDisplayOrder',
  ] as const) {
    expect(actual[name].length, name).toBe(actual.length);
  }
  const summaries = summarizeBiasSessions(expected);
  expectSameSummaries(summarizeBiasSessions(actual), summaries);
  return summaries;
}
