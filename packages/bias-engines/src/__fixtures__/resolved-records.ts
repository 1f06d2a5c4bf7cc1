import type { BiasRecordColumns } from '@council/bias-store';

/**
 * Columns as plain values with every index resolved to its name: two reads of the same records compare equal whatever
 * order each interned names in. Per session (id, earliest time), its records in order, each field as read (a score by
 * `Object.is` under `toEqual`, so 0 and -0 differ; NaN for unscored).
 */
export function resolvedRecords(columns: BiasRecordColumns): { session: string; time: number; records: unknown[][] }[] {
  const label = (names: readonly string[], id: number): string | null => (id === 0 ? null : names[id - 1]!);
  return columns.sessionIds.map((session, s) => {
    const records: unknown[][] = [];
    for (let i = columns.sessionStart[s]!; i < columns.sessionStart[s + 1]!; i++) {
      if (columns.session[i] !== s)
        throw new Error(`record ${i} lies in session ${s}'s range but names session ${columns.session[i]}`);
      records.push([
        columns.models[columns.reviewer[i]!],
        columns.models[columns.candidate[i]!],
        columns.position[i],
        columns.responseLengthChars[i],
        columns.score[i],
        columns.rankPosition[i],
        columns.time[i],
        label(columns.configVersions, columns.configVersion[i]!),
        label(columns.queryCategories, columns.queryCategory[i]!),
        columns.positionIsDisplayOrder[i],
      ]);
    }
    return { session, time: columns.sessionTime[s]!, records };
  });
}
