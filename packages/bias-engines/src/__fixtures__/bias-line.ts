import type { BiasObservation } from '@council/bias-audit';

/**
 * A bias record line as this package writes it for `o`, with `fields` laid over it (a field set to undefined is left
 * out, as JSON.stringify leaves it out).
 */
export function biasLine(o: BiasObservation, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    schema_version: '1.1.0',
    session_id: o.sessionId,
    timestamp: o.timestamp,
    consent_level: 1,
    query_metadata: { category: 'coding', token_count_bucket: 'short', language: 'en' },
    reviewer_id: o.reviewer,
    model_id: o.candidate,
    position: o.position,
    response_length_chars: o.responseLengthChars,
    score_value: o.score,
    score_scale: '1-10',
    council_config_version: o.configVersion,
    query_hash: null,
    rank_position: o.rankPosition,
    ...fields,
  });
}
