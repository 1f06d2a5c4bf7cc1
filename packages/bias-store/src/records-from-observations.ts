import type { BiasObservation } from '@council/bias-audit';
import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasSchemaVersion } from './bias-metric-record.js';
import { BiasStoreError } from './bias-store-error.js';
import type { ConsentLevel } from './consent-level.js';
import { isConsentLevel } from './consent-level.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { hashQuery } from './query-hash.js';
import { deriveQueryMetadata } from './query-metadata.js';

export interface RecordsFromObservationsOptions {
  /** The user's consent level: 0 gives no records at all; the hash is computed only at 4. */
  consent: ConsentLevel;
  /** `LLM_COUNCIL_HASH_SECRET`: required at consent 4, ignored below. */
  hashSecret: string | null;
  /** The session's query: used for `queryMetadata` and (at 4) `queryHash`, never stored. Null when unknown. */
  query: string | null;
  /** The scale of the scores; default `"1-10"` (ADR-018's example and Council's evaluation prompt). */
  scoreScale?: string;
}

function problemOf(o: BiasObservation): string | undefined {
  if (typeof o.sessionId !== 'string' || o.sessionId === '') return 'sessionId must be a non-empty string';
  if (typeof o.reviewer !== 'string' || o.reviewer === '') return 'reviewer must be a non-empty string';
  if (typeof o.candidate !== 'string' || o.candidate === '') return 'candidate must be a non-empty string';
  const time = typeof o.timestamp === 'string' ? parseIsoTimestamp(o.timestamp) : null;
  if (time === null || !time.hasZone) return 'timestamp must be ISO 8601 with a zone (e.g. 2025-12-17T10:30:00Z)';
  if (!Number.isInteger(o.position) || o.position < 0) return 'position must be an integer ≥ 0 (the display position)';
  if (!Number.isInteger(o.responseLengthChars) || o.responseLengthChars < 0)
    return 'responseLengthChars must be an integer ≥ 0';
  if (o.score !== null && (typeof o.score !== 'number' || !Number.isFinite(o.score)))
    return 'score must be a finite number or null (unscored)';
  if (o.rankPosition !== null && (!Number.isInteger(o.rankPosition) || o.rankPosition < 0))
    return 'rankPosition must be an integer ≥ 0 or null';
  if (o.configVersion !== null && typeof o.configVersion !== 'string') return 'configVersion must be a string or null';
  return undefined;
}

/**
 * Builds one `BiasMetricRecord` per observation (one per session, candidate and reviewer) at schema
 * 1.1.0. `queryMetadata` is derived from the query; `queryHash` only at consent 4 (RESEARCH), with
 * the user's secret. At consent 0 (OFF) it returns no records. The query text is in no record and no
 * error message.
 */
export function recordsFromObservations(
  observations: readonly BiasObservation[],
  options: RecordsFromObservationsOptions,
): BiasMetricRecord[] {
  if (!isConsentLevel(options.consent)) {
    throw new BiasStoreError({
      code: 'INVALID_CONFIG',
      message: `recordsFromObservations: consent must be 0, 1, 2, 3 or 4, got ${String(options.consent)}.`,
    });
  }
  if (options.consent === 0) return [];
  if (options.consent === 4 && (options.hashSecret === null || options.hashSecret === '')) {
    throw new BiasStoreError({
      code: 'INVALID_CONFIG',
      message:
        'Consent level 4 (RESEARCH) stores query hashes and needs LLM_COUNCIL_HASH_SECRET; there is no default secret. Set it to a secret of your own, or choose consent 3 or lower.',
    });
  }
  const queryMetadata = options.query === null ? null : deriveQueryMetadata(options.query);
  const queryHash =
    options.consent === 4 && options.query !== null
      ? hashQuery({ query: options.query, secret: options.hashSecret! })
      : null;
  const seen = new Set<string>();
  return observations.map((o, index) => {
    const problem = problemOf(o);
    const where =
      `observation ${index}` + (typeof o.sessionId === 'string' ? ` (session ${o.sessionId.slice(0, 64)})` : '');
    if (problem !== undefined)
      throw new BiasStoreError({ code: 'INVALID_RECORD', message: `${where}: ${problem}. No records were built.` });
    const key = JSON.stringify([o.sessionId, o.candidate, o.reviewer]);
    if (seen.has(key)) {
      throw new BiasStoreError({
        code: 'INVALID_RECORD',
        message: `${where}: a second observation of candidate ${o.candidate.slice(0, 64)} by reviewer ${o.reviewer.slice(0, 64)}; there is one record per (session, candidate, reviewer). No records were built.`,
      });
    }
    seen.add(key);
    return {
      schemaVersion: biasSchemaVersion,
      sessionId: o.sessionId,
      timestamp: o.timestamp,
      consentLevel: options.consent,
      queryMetadata,
      reviewerId: o.reviewer,
      modelId: o.candidate,
      position: o.position,
      responseLengthChars: o.responseLengthChars,
      scoreValue: o.score,
      scoreScale: options.scoreScale ?? '1-10',
      councilConfigVersion: o.configVersion,
      queryHash,
      rankPosition: o.rankPosition,
      positionIsDisplayOrder: true,
    };
  });
}
