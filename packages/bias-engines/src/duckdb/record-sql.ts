/**
 * The record stage of the DuckDB map as SQL: every line of the JSONL inputs (plain or gzip) and every row of the Parquet
 * inputs, read once, as the table `scan` — each with its read order `ord`, its input `file`, and a `status` saying
 * whether the reader's rules accept it — and, from `scan`, the window's tables `rec` and `kept` (`window-sql.ts`).
 *
 * The rules are `readBiasRecords`' (parse-bias-line.ts, bias-metric-record.ts, iso-timestamp.ts, scan-bias-parquet.ts),
 * written so that SQL accepts (status 0) only what the reader certainly accepts, decoded as the reader decodes it. What
 * SQL cannot judge as the reader does — a line DuckDB's JSON parser refuses, a repeated key (JSON.parse keeps the last
 * value, DuckDB the first), a key the schema does not name (DuckDB's parser takes NaN and trailing commas there) — is
 * status 1, for the reader's own code to decide (`reconcile-lines.ts`); a line the rules reject is status 2.
 */

import {
  biasColumn,
  biasField,
  biasLineKeys,
  biasLineParts,
  biasMetadataKey,
  biasMetadataKeys,
  biasRecordFields,
  isNullableColumn,
} from '@council/bias-store/internal';
import type { BiasFieldApi, BiasFieldKind, BiasRecordField } from '@council/bias-store/internal';
import { parquetReportFields } from '../parquet-row-rules.js';

/** The kinds of field whose value on a line may be a number, and those whose value may be a string the scan reads. */
const numberKinds: ReadonlySet<BiasFieldKind> = new Set(['version', 'consent', 'count', 'score']);
const textKinds: ReadonlySet<BiasFieldKind> = new Set(['version', 'id', 'timestamp', 'text', 'hash']);

/** One input file, in read order (as `resolveBiasInputs` lists them). */
export interface SummarySqlInput {
  path: string;
  parquet: boolean;
}

/**
 * A string as an SQL expression DuckDB reads back to the same string. Quotes are doubled; a NUL, which ends DuckDB's
 * quoted string (a model named with one was a parser error), is spliced in as `chr(0)`, the whole in parentheses so
 * that it compares as one value.
 */
export const literal = (text: string): string => {
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return text.includes('\0') ? `(${quoted.replaceAll('\0', "' || chr(0) || '")})` : quoted;
};

/** The first `ord` of input `index`: a file's rows or lines are numbered below the next file's first. */
export const ordBase = (index: number): string => `${index}::BIGINT * 4294967296`;

/** `noRank` of bias-record-columns.ts: counts must stay below it. */
const noRank = 4_294_967_295;

// The ISO 8601 text parseIsoTimestamp accepts (its isoPattern, with \d written [0-9] as JS's \d means).
const isoPattern = String.raw`^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,9}))?)?(Z|z|[+-][0-9]{2}(?::?[0-9]{2})?)?$`;

/** The keys a bias record line may hold (the record table's, as parse-bias-line.ts reads them); any other is left to the reader. */
const recordKeys = biasLineKeys;
const metadataKeys = biasMetadataKeys;
const lineFields = biasRecordFields.filter((f) => !f.inMetadata);
/** A field's key on a line, and its column in a Parquet file. */
const key = (api: BiasFieldApi): string => biasField(api).key;
const column = (api: BiasFieldApi): string => biasColumn[api];

/** Macros the record SQL uses. */
export function recordSqlMacros(): string[] {
  return [
    `CREATE OR REPLACE TEMP MACRO days_in_month(y, mo) AS CASE WHEN mo = 2 AND ((y % 4 = 0 AND y % 100 <> 0) OR y % 400 = 0) THEN 29 ELSE [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo] END`,
  ];
}

/**
 * One parsed timestamp (`p`, regexp_extract's struct of isoPattern's groups) as parseIsoTimestamp reads it: valid
 * when the text matched and the fields are in range; the instant as Date.UTC computes it (a year below 100 is 1900 +
 * the year; the day counted from the month's first, so 29 February of a year Date.UTC does not leap rolls over); the
 * fraction as Math.floor(Number('0.' + digits) * 1000); minus the zone's offset.
 */
function timestampColumns(text: string): { valid: string; ms: string; zoned: string } {
  const n = (group: string): string => `TRY_CAST(p['${group}'] AS INTEGER)`;
  const zone = "p['z']";
  const offsetDigits = `replace(substr(${zone}, 2), ':', '')`;
  const offsetHours = `TRY_CAST(substr(${offsetDigits}, 1, 2) AS INTEGER)`;
  const offsetMinutes = `CASE WHEN length(${offsetDigits}) > 2 THEN TRY_CAST(substr(${offsetDigits}, 3, 2) AS INTEGER) ELSE 0 END`;
  const numericZone = `${zone} NOT IN ('', 'Z', 'z')`;
  const valid = `(regexp_full_match(${text}, '${isoPattern}') AND ${n('mo')} BETWEEN 1 AND 12 AND ${n('d')} >= 1 AND ${n('d')} <= days_in_month(${n('y')}, ${n('mo')})
    AND ${n('h')} <= 23 AND ${n('mi')} <= 59 AND coalesce(${n('s')}, 0) <= 59 AND (NOT ${numericZone} OR (${offsetHours} <= 23 AND ${offsetMinutes} <= 59)))`;
  const year = `CASE WHEN ${n('y')} < 100 THEN ${n('y')} + 1900 ELSE ${n('y')} END`;
  const fraction = `CASE WHEN p['f'] = '' THEN 0 ELSE floor(('0.' || p['f'])::DOUBLE * 1000)::BIGINT END`;
  const offset = `CASE WHEN ${numericZone} THEN (CASE WHEN starts_with(${zone}, '-') THEN -1 ELSE 1 END) * (${offsetHours} * 60 + ${offsetMinutes}) * 60000 ELSE 0 END`;
  const ms = `(((make_date(${year}, ${n('mo')}, 1) - DATE '1970-01-01') + ${n('d')} - 1)::BIGINT * 86400000 + ${n('h')} * 3600000 + ${n('mi')} * 60000 + coalesce(${n('s')}, 0) * 1000 + ${fraction} - ${offset})::DOUBLE`;
  return { valid, ms, zoned: `${zone} <> ''` };
}

const scanColumns =
  'ord, file, status, session, ms, zoned, reviewer, candidate, position, len, score, rank, config, category, pido';

/**
 * The lines of consecutive JSONL inputs `files` (input indexes from `first`) as rows of `scan`. DuckDB reads each
 * line that holds more than white space into one row (a line it cannot parse into a row of NULLs), in file order: the
 * row's `ord` is the group's base plus its ordinality, the line it came from is found by `reconcile-lines.ts`.
 */
function jsonlScan(files: readonly string[], first: number): string {
  const fileList = `[${files.map(literal).join(', ')}]`;
  // Each field's JSON text, its JSON type, and (numbers, strings) its value, computed once: each JSON function parses.
  const numberKeys = lineFields.filter((f) => numberKinds.has(f.kind)).map((f) => f.key);
  const textKeys = lineFields.filter((f) => textKinds.has(f.kind)).map((f) => f.key);
  const values = recordKeys.map((k) => `m[${literal(k)}] AS v_${k}`).join(', ');
  const types = recordKeys.map((k) => `json_type(v_${k}) AS t_${k}`).join(', ');
  const numbers = numberKeys.map((k) => `TRY_CAST(v_${k} AS DOUBLE) AS x_${k}`).join(', ');
  const texts = textKeys.map((k) => `v_${k} ->> '$' AS s_${k}`).join(', ');
  // A finite JSON number (JSON.parse's value: both round the text correctly); a count: whole, ≥ 0, below noRank.
  const num = (k: string): string =>
    `CASE WHEN t_${k} IN ('UBIGINT', 'BIGINT', 'DOUBLE') AND isfinite(x_${k}) THEN x_${k} END`;
  const count = (k: string): string =>
    `CASE WHEN t_${k} IN ('UBIGINT', 'BIGINT', 'DOUBLE') AND x_${k} >= 0 AND x_${k} < ${noRank} AND x_${k} = floor(x_${k}) THEN x_${k} END`;
  const text = (k: string): string => `CASE WHEN t_${k} = 'VARCHAR' THEN s_${k} END`;
  // Absent or null (DuckDB's map holds JSON null as SQL NULL, so its type is NULL too).
  const absent = (k: string): string => `t_${k} IS NULL`;
  const meta = biasMetadataKey;
  const metadataOk = `(${absent(meta)} OR (t_${meta} = 'OBJECT' AND ${metadataKeys.map((_, i) => `(q_types[${i + 1}] IS NULL OR q_types[${i + 1}] IN ('NULL', 'VARCHAR'))`).join(' AND ')}))`;
  // Plain: what SQL can judge exactly — no repeated key (here or in the metadata), no key the reader does not name, a
  // derived flag (ignored by the schema, read by the fast parser) only as a boolean.
  // A map holds every key of the line, repeats included: it has as many keys as the reader's keys it holds exactly when
  // each of its keys is one of those and none repeats (list functions cost a second a million lines more).
  const flags = lineFields.filter((f) => f.kind === 'flag').map((f) => f.key);
  const plain = `(len(keys) = ${recordKeys.map((k) => `map_contains(m, ${literal(k)})::INTEGER`).join(' + ')}
    AND (t_${meta} IS DISTINCT FROM 'OBJECT' OR len(q_keys) = ${metadataKeys.map((_, i) => `(q_types[${i + 1}] IS NOT NULL)::INTEGER`).join(' + ')})
    ${flags.map((k) => `AND (NOT map_contains(m, ${literal(k)}) OR t_${k} = 'BOOLEAN')`).join(' ')})`;
  // The line's values the scan keeps (the reader's `LineRecord`), each read by its field's kind; computed once, below.
  const kept: readonly (readonly [name: string, api: BiasFieldApi])[] = [
    ['session', 'sessionId'],
    ['reviewer', 'reviewerId'],
    ['candidate', 'modelId'],
    ['position', 'position'],
    ['len', 'responseLengthChars'],
    ['score', 'scoreValue'],
    ['rank', 'rankPosition'],
    ['config', 'councilConfigVersion'],
  ];
  const read = (field: BiasRecordField): string =>
    field.kind === 'count' ? count(field.key) : field.kind === 'score' ? num(field.key) : text(field.key);
  const valueOf = (field: BiasRecordField): string => kept.find(([, api]) => api === field.api)?.[0] ?? read(field);
  // Each field's rule, as the schema's (bias-metric-record.ts) for its kind and presence.
  const rule = (field: BiasRecordField): string => {
    const k = field.key;
    let check: string;
    switch (field.kind) {
      case 'version':
        check = `(${num(k)} = 1 OR regexp_full_match(${text(k)}, '1(\\.[0-9]+){0,2}'))`;
        break;
      case 'id':
        check = `${valueOf(field)} <> ''`;
        break;
      case 'timestamp':
        check = 'ts_valid';
        break;
      case 'consent':
        check = `(${num(k)} BETWEEN 0 AND 4 AND x_${k} = floor(x_${k}))`;
        break;
      case 'hash':
        check = `regexp_full_match(${text(k)}, '[0-9a-f]{16}')`;
        break;
      case 'count':
      case 'score':
        check = `${valueOf(field)} IS NOT NULL`;
        break;
      case 'label':
      case 'text':
        // A string: the kept value when the scan keeps it, else the JSON type.
        check = kept.some(([, api]) => api === field.api) ? `${valueOf(field)} IS NOT NULL` : `t_${k} = 'VARCHAR'`;
        break;
      case 'flag':
        return 'true';
    }
    if (field.presence === 'required') return check;
    if (field.presence === 'nullable') return `map_contains(m, ${literal(k)}) AND (${absent(k)} OR ${check})`;
    return `(${absent(k)} OR ${check})`;
  };
  const valid = `(${biasLineParts.map((part) => ('field' in part ? rule(part.field) : metadataOk)).join('\n    AND ')})`;
  const ts = timestampColumns('ts');
  // versionAtLeast(version, 1, 2): the second part of a "1.x.y" version as Number reads it.
  const minor = `coalesce(TRY_CAST(split_part(${text(key('schemaVersion'))}, '.', 2) AS DOUBLE), 0)`;
  return `
    SELECT ord, file, CASE WHEN m IS NULL OR NOT coalesce(plain, false) THEN 1 WHEN coalesce(valid, false) THEN 0 ELSE 2 END AS status,
           session, ms, zoned, reviewer, candidate, position, len, score, rank, config, category, pido
    FROM (
      SELECT *, ${plain} AS plain, ${valid} AS valid
      FROM (
        SELECT *, CASE WHEN ts_valid THEN ${ts.ms} END AS ms, ${ts.zoned} AS zoned
        FROM (
          SELECT *, ${ts.valid} AS ts_valid
          FROM (
            SELECT *, regexp_extract(ts, '${isoPattern}', ['y', 'mo', 'd', 'h', 'mi', 's', 'f', 'z']) AS p,
                   ${kept.map(([name, api]) => `${read(biasField(api))} AS ${name}`).join(', ')},
                   map_contains(m, ${literal(key('rankPosition'))}) OR ${minor} >= 2 AS pido
            FROM (
              SELECT *, ${text(key('timestamp'))} AS ts,
                     CASE WHEN t_${meta} = 'OBJECT' THEN json_type(v_${meta}, [${metadataKeys.map((k) => `'$.${k}'`).join(', ')}]) END AS q_types,
                     CASE WHEN t_${meta} = 'OBJECT' THEN json_keys(v_${meta}) END AS q_keys,
                     CASE WHEN t_${meta} = 'OBJECT' THEN json_extract_string(v_${meta}, '$.${key('category')}') END AS category
              FROM (
                SELECT *, ${types}, ${numbers}, ${texts}
                FROM (
                  SELECT ${ordBase(first)} + ordinality AS ord, ${first} + file_index AS file, m,
                         map_keys(m) AS keys, ${values}
                  FROM read_json(${fileList}, format = 'newline_delimited', records = false, columns = {m: 'MAP(VARCHAR, JSON)'},
                                 compression = 'auto_detect', ignore_errors = true) WITH ORDINALITY
                )
              )
            )
          )
        )
      )
    )`;
}

/**
 * The rows of consecutive Parquet inputs as rows of `scan`, checked as scan-bias-parquet.ts checks them (its schema
 * check runs before, in `reconcile-lines.ts`). The instant is Math.floor(µs / 1000), as the JS reads a
 * microsecond timestamp (DuckDB's epoch_ms rounds toward zero before 1970).
 */
function parquetScan(files: readonly string[], first: number): string {
  const fileList = `[${files.map(literal).join(', ')}]`;
  // Each column the report reads (`parquetReportFields`), checked by its field's kind as scanBiasParquet checks it (null
  // only where it may be).
  const check = (field: BiasRecordField): string | undefined => {
    const c = field.column;
    switch (field.kind) {
      case 'version':
        return `regexp_full_match(${c}, '1(\\.[0-9]+){0,2}')`;
      case 'id':
        return `${c} <> ''`;
      case 'timestamp':
      case 'flag':
        return `${c} IS NOT NULL`;
      case 'count':
        return `(${c} >= 0 AND ${c} < ${noRank})`;
      case 'score':
        return `isfinite(${c})`;
      case 'consent':
      case 'label':
      case 'text':
      case 'hash':
        // Not judged: any value of the column's type is kept (a report reads none but the category and config version).
        return undefined;
    }
  };
  const rules = parquetReportFields.map(biasField).flatMap((field) => {
    const rule = check(field);
    if (rule === undefined) return [];
    return [isNullableColumn(field) ? `(${field.column} IS NULL OR ${rule})` : rule];
  });
  const valid = `coalesce(${rules.join('\n    AND ')}, false)`;
  return `
    SELECT ${ordBase(first)} + file_index::BIGINT * 4294967296 + file_row_number + 1 AS ord,
           ${first} + file_index AS file,
           CASE WHEN ${valid} THEN 0 ELSE 2 END AS status,
           ${column('sessionId')} AS session, floor(epoch_us(${column('timestamp')})::DOUBLE / 1000) AS ms, true AS zoned,
           ${column('reviewerId')} AS reviewer, ${column('modelId')} AS candidate, ${column('position')}::DOUBLE AS position,
           ${column('responseLengthChars')}::DOUBLE AS len, ${column('scoreValue')}::DOUBLE AS score,
           ${column('rankPosition')}::DOUBLE AS rank, ${column('councilConfigVersion')} AS config, ${column('category')} AS category,
           ${column('positionIsDisplayOrder')} AS pido
    FROM read_parquet(${fileList}, file_row_number = true)`;
}

/** An empty `scan`, with its column types. */
const emptyScan = `SELECT NULL::BIGINT AS ord, NULL::INTEGER AS file, NULL::UTINYINT AS status, NULL::VARCHAR AS session, NULL::DOUBLE AS ms,
  NULL::BOOLEAN AS zoned, NULL::VARCHAR AS reviewer, NULL::VARCHAR AS candidate, NULL::DOUBLE AS position, NULL::DOUBLE AS len,
  NULL::DOUBLE AS score, NULL::DOUBLE AS rank, NULL::VARCHAR AS config, NULL::VARCHAR AS category, NULL::BOOLEAN AS pido WHERE false`;

/**
 * The statements building `scan` from `inputs` (read in the order given; `skip` holds the indexes of inputs the reader's
 * own code reads instead — files DuckDB cannot read as the reader does): a table, or with `view` a view that reads the
 * files again each time it is read (for Parquet, cheaper than a copy in memory). Consecutive inputs of one kind are read by
 * one scan. JSONL lines are numbered by ordinality, so a group of JSONL files ends at a skipped input.
 */
export function duckdbScanStatements(
  inputs: readonly SummarySqlInput[],
  skip: ReadonlySet<number> = new Set(),
  options: { view?: boolean } = {},
): string[] {
  const parts: string[] = [];
  for (let at = 0; at < inputs.length;) {
    if (skip.has(at)) {
      at++;
      continue;
    }
    const parquet = inputs[at]!.parquet;
    let end = at;
    while (end < inputs.length && !skip.has(end) && inputs[end]!.parquet === parquet) end++;
    const files = inputs.slice(at, end).map((f) => f.path);
    parts.push(`SELECT ${scanColumns} FROM (${parquet ? parquetScan(files, at) : jsonlScan(files, at)})`);
    at = end;
  }
  const source = [emptyScan, ...parts].join('\nUNION ALL\n');
  return [
    `SET TimeZone = 'UTC'`,
    ...recordSqlMacros(),
    `CREATE OR REPLACE TEMP ${options.view === true ? 'VIEW' : 'TABLE'} scan AS ${source}`,
  ];
}
