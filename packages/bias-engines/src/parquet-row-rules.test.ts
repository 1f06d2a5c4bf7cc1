import { describe, expect, it } from 'vitest';
import { parquetRowDetails, parquetVersionProblem } from './parquet-row-rules.js';

describe('the Parquet readers’ skip details', () => {
  it('name the columns of the export, as the readers have always worded them', () => {
    expect(parquetRowDetails).toEqual({
      ids: 'session_id, reviewer_id and model_id must be non-empty strings',
      range:
        'timestamp, position, response_length_chars, rank_position, score_value or position_is_display_order is missing or out of range',
      reportStrings: 'council_config_version and query_category must be strings or null',
      consent: 'consent_level must be 0, 1, 2, 3, 4 or null',
      strings:
        'query_category, query_token_count_bucket, query_language, score_scale, council_config_version and query_hash must be strings or null',
      hash: 'query_hash: expected 16 lower-case hex characters',
    });
  });

  it('read a "1.x.y" version, skip a later major as unsupported and anything else as invalid', () => {
    expect(parquetVersionProblem('1.1.0')).toBeUndefined();
    expect(parquetVersionProblem('2.0.0')).toEqual({
      reason: 'unsupported_version',
      detail:
        'schema_version "2.0.0" has major version 2; this reader understands major 1 (a newer Council wrote it: upgrade to read it)',
    });
    expect(parquetVersionProblem(null)).toEqual({
      reason: 'invalid_record',
      detail: 'schema_version: expected 1 or a "1.x.y" version',
    });
  });
});
