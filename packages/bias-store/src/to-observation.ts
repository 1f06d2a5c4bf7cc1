import type { BiasObservation } from '@council/bias-audit';
import type { BiasMetricRecord } from './bias-metric-record.js';
import { parseIsoTimestamp } from './iso-timestamp.js';

/**
 * The `@council/bias-audit` observation of a record. A timestamp read without a zone (older files)
 * is given as UTC (`…Z`), as the store reads it. Check `record.positionIsDisplayOrder` before using
 * `position` for position bias: older Python-written records may hold a ranking index there.
 */
export function toObservation(record: BiasMetricRecord): BiasObservation {
  const parsed = parseIsoTimestamp(record.timestamp);
  const timestamp = parsed !== null && !parsed.hasZone ? new Date(parsed.ms).toISOString() : record.timestamp;
  return {
    sessionId: record.sessionId,
    timestamp,
    reviewer: record.reviewerId,
    candidate: record.modelId,
    position: record.position,
    responseLengthChars: record.responseLengthChars,
    score: record.scoreValue,
    rankPosition: record.rankPosition,
    configVersion: record.councilConfigVersion,
    queryCategory: record.queryMetadata?.category ?? null,
  };
}
