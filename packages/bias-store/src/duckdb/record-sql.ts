/**
 * The records of the bias report's map step as DuckDB SQL: the valid records of JSONL stores (plain or gzip) or Parquet
 * exports as the table `rec`, and `kept`, the first record read of each (session, reviewer, reviewed member) — what
 * the summaries (`summary-sql.ts`) are computed from. Each record's `ord` is its read order (file, then line or row).
 */

/** One input file, as `resolveBiasInputs` lists them (in read order). */
export interface SummarySqlInput {
  path: string;
  parquet: boolean;
}

const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** The highest display position a record may have (as `MAX_POSITION` of @council/bias-audit). */
const maxPosition = 65_535;

/** A whole number ≥ 0 held in a JSON value (`5` or `5.0`; never `"5"`), else NULL. */
const wholeJson = (name: string): string =>
  `CASE WHEN json_type(${name}) IN ('UBIGINT', 'BIGINT', 'DOUBLE') AND TRY_CAST(${name} AS DOUBLE) >= 0 AND TRY_CAST(${name} AS DOUBLE) = floor(TRY_CAST(${name} AS DOUBLE)) THEN TRY_CAST(${name} AS DOUBLE) END`;
const stringJson = (name: string): string => `CASE WHEN json_type(${name}) = 'VARCHAR' THEN ${name} ->> '$' END`;

/**
 * The records of JSONL stores (plain or gzip) as `rec`: the columns the summaries read, with `ord` the read order
 * (file, then line). Lines the JS reader skips are left out: not JSON, another major version, a field missing or of
 * the wrong type.
 */
function jsonlRecords(files: readonly string[], fileBase: number): string {
  const columns = {
    schema_version: 'JSON',
    session_id: 'JSON',
    timestamp: 'JSON',
    reviewer_id: 'JSON',
    model_id: 'JSON',
    position: 'JSON',
    response_length_chars: 'JSON',
    score_value: 'JSON',
    council_config_version: 'JSON',
    rank_position: 'JSON',
  };
  const struct = `{${Object.entries(columns)
    .map(([k, v]) => `${k}: '${v}'`)
    .join(', ')}}`;
  // ignore_errors turns a line that is not JSON into a row of NULLs, which the checks below leave out.
  return `
    SELECT (${fileBase} + list_position([${files.map(literal).join(', ')}], filename)) * 4294967296 + ordinality AS ord, *
    FROM (
      SELECT
        ${stringJson('session_id')} AS session,
        epoch_ms(TRY_CAST(${stringJson('timestamp')} AS TIMESTAMPTZ))::DOUBLE AS ms,
        ${stringJson('reviewer_id')} AS reviewer,
        ${stringJson('model_id')} AS candidate,
        ${wholeJson('position')} AS position,
        ${wholeJson('response_length_chars')} AS len,
        CASE WHEN json_type(score_value) IN ('UBIGINT', 'BIGINT', 'DOUBLE') THEN TRY_CAST(score_value AS DOUBLE) END AS score,
        json_type(score_value) = 'NULL' OR score_value IS NULL AS unscored,
        ${wholeJson('rank_position')} AS rank,
        json_type(rank_position) IS NULL OR json_type(rank_position) = 'NULL' AS unranked,
        ${stringJson('council_config_version')} AS config,
        json_type(council_config_version) IS NULL OR json_type(council_config_version) = 'NULL' AS no_config,
        (json_type(schema_version) IN ('UBIGINT', 'BIGINT', 'DOUBLE') AND TRY_CAST(schema_version AS DOUBLE) = 1)
          OR (json_type(schema_version) = 'VARCHAR' AND regexp_full_match(schema_version ->> '$', '1(\\.[0-9]+){0,2}')) AS version_ok,
        filename,
        ordinality
      FROM read_json([${files.map(literal).join(', ')}], format = 'newline_delimited', compression = 'auto_detect',
                     columns = ${struct}, ignore_errors = true, filename = true, maximum_object_size = 1048576) WITH ORDINALITY
    )
    WHERE version_ok AND session <> '' AND reviewer <> '' AND candidate <> '' AND ms IS NOT NULL
      AND position IS NOT NULL AND position <= ${maxPosition} AND len IS NOT NULL
      AND (score IS NOT NULL OR unscored) AND (rank IS NOT NULL OR unranked) AND (config IS NOT NULL OR no_config)`;
}

/** The rows of Parquet files written by `council store export` as `rec` (their types are the documented ones). */
function parquetRecords(files: readonly string[], fileBase: number): string {
  return `
    SELECT (${fileBase} + list_position([${files.map(literal).join(', ')}], filename)) * 4294967296 + file_row_number AS ord,
           session_id AS session, epoch_ms(timestamp)::DOUBLE AS ms, reviewer_id AS reviewer, model_id AS candidate,
           position::DOUBLE AS position, response_length_chars::DOUBLE AS len, score_value AS score,
           rank_position::DOUBLE AS rank, council_config_version AS config
    FROM read_parquet([${files.map(literal).join(', ')}], filename = true, file_row_number = true)
    WHERE position <= ${maxPosition}`;
}

const recordColumns = 'ord, session, ms, reviewer, candidate, position, len, score, rank, config';

/** The statements building `rec` and `kept` from `inputs` (read in the order given). */
export function duckdbRecordStatements(inputs: readonly SummarySqlInput[]): string[] {
  const parts: string[] = [];
  // Consecutive files of one kind are read by one scan; `fileBase` keeps `ord` in the inputs' order.
  for (let at = 0; at < inputs.length; ) {
    const parquet = inputs[at]!.parquet;
    let end = at;
    while (end < inputs.length && inputs[end]!.parquet === parquet) end++;
    const files = inputs.slice(at, end).map((f) => f.path);
    parts.push(`SELECT ${recordColumns} FROM (${parquet ? parquetRecords(files, at) : jsonlRecords(files, at)})`);
    at = end;
  }
  const source = parts.length === 0 ? `SELECT ${recordColumns} FROM (SELECT NULL::BIGINT AS ord, NULL::VARCHAR AS session, NULL::DOUBLE AS ms, NULL::VARCHAR AS reviewer, NULL::VARCHAR AS candidate, NULL::DOUBLE AS position, NULL::DOUBLE AS len, NULL::DOUBLE AS score, NULL::DOUBLE AS rank, NULL::VARCHAR AS config) WHERE false` : parts.join('\nUNION ALL\n');
  return [
    `SET TimeZone = 'UTC'`,
    `CREATE OR REPLACE TEMP TABLE rec AS ${source}`,
    // The first record read of each (session, reviewer, reviewed member); repeats count once.
    `CREATE OR REPLACE TEMP TABLE kept AS SELECT * FROM rec QUALIFY row_number() OVER (PARTITION BY session, reviewer, candidate ORDER BY ord) = 1`,
  ];
}
