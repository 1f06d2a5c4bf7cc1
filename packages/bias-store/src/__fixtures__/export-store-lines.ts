/** One on-disk line; fields as ADR-018 v1.1 writes them, any of them overridable (undefined drops the key). */
export function exportLine(fields: Record<string, unknown>): string {
  const base: Record<string, unknown> = {
    schema_version: '1.1.0',
    session_id: 's1',
    timestamp: '2026-11-01T10:00:00Z',
    consent_level: 1,
    query_metadata: { category: 'coding', token_count_bucket: '0-100', language: 'en' },
    reviewer_id: 'r/a',
    model_id: 'm/b',
    position: 0,
    response_length_chars: 120,
    score_value: 7,
    score_scale: '1-10',
    council_config_version: '1.0.0',
    query_hash: null,
    rank_position: 0,
  };
  const merged = { ...base, ...fields };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return JSON.stringify(merged);
}

/**
 * Nine records over three UTC days, with the shapes an export must keep: an ADR-018 v1 record (integer version, no
 * rank_position, so its position may be a rank), an unscored one, a zone-less time, a +01:00 time that is still the
 * previous UTC day, a consent-4 hash, null query metadata; and two unreadable lines (not exported, but counted).
 */
export const exportStoreLines: readonly string[] = [
  exportLine({ session_id: 's1', reviewer_id: 'r/a', model_id: 'm/b', position: 0, score_value: 7, rank_position: 1 }),
  exportLine({
    session_id: 's1',
    reviewer_id: 'r/b',
    model_id: 'm/a',
    position: 1,
    score_value: null,
    rank_position: 0,
  }),
  exportLine({
    schema_version: 1,
    session_id: 's2',
    timestamp: '2026-11-01T23:30:00Z',
    consent_level: undefined,
    query_metadata: undefined,
    rank_position: undefined,
    score_value: 4.5,
  }),
  'not json',
  // 2026-11-02T00:10+01:00 is 2026-11-01T23:10Z: day 2026-11-01.
  exportLine({ session_id: 's3', timestamp: '2026-11-02T00:10:00+01:00', score_value: 9 }),
  exportLine({
    session_id: 's4',
    timestamp: '2026-11-02T08:00:00',
    reviewer_id: 'r/c',
    position: 2,
    score_value: 3,
    query_metadata: null,
  }),
  exportLine({
    session_id: 's4',
    timestamp: '2026-11-02T08:00:00',
    reviewer_id: 'r/d',
    position: 3,
    score_value: 6,
    consent_level: 4,
    query_hash: '0123456789abcdef',
  }),
  exportLine({ schema_version: '2.0.0', session_id: 's9' }),
  exportLine({
    session_id: 's5',
    timestamp: '2026-11-03T12:00:00.250Z',
    response_length_chars: 4000,
    score_value: 10,
    council_config_version: null,
  }),
  exportLine({
    session_id: 's5',
    timestamp: '2026-11-03T12:00:00.250Z',
    reviewer_id: 'r/e',
    score_value: 1,
    rank_position: 4,
  }),
  exportLine({ session_id: 's6', timestamp: '2026-11-03T23:59:59.999Z', model_id: 'm/z' }),
];
