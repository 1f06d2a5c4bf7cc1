/**
 * The map step of the cross-session bias report as ClickHouse SQL (18.16 and later): the per-session summaries
 * (`BiasSessionSummary` of @council/bias-audit, shape v1) of the records in the bias-records table, and the window's
 * counts. The one place this dialect's map SQL lives.
 *
 * The JS map (`summarizeBiasSessions`) is the specification, to the bit: floating-point addition is not associative,
 * so every sum here is a sequential left fold over the same values in the same order as the JS adds them —
 * `arraySum` over an array built in that order (a group's values: `arrayFilter` of the ordered values), or, for
 * X̃'X̃'s cells, `sumMap` over (cell, value) events in that order (both add one element after another from the first;
 * checked on 18.16.1; `sumMap` costs about 100 ns an event there, so it serves only where a cell's events interleave
 * with other cells'). Never `sum()`/`avg()` over rows, whose order a parallel engine chooses. Each session's records are gathered with `groupArray` and put in read order by
 * `arraySort` on (`ord`, `record_key`); everything after that is array functions and lambdas within the row.
 */

/** An unranked record's rank, as the JS columns hold it (`noRank`). */
const noRank = 4294967295;
/** 2³²: packs two 32-bit numbers into one sort key or code. */
const shift32 = 4294967296;

/** The window and filters, with `readBiasRecords`' meanings, as the SQL needs them. */
export interface ClickhouseWindowSpec {
  /** `database.table` or `table`, already checked to be identifiers. */
  table: string;
  /** Keep records timestamped at or before this instant (epoch ms). */
  nowMs: number;
  /** Keep records at or after this instant (epoch ms, a whole number), or null for no lower bound. */
  earliestMs: number | null;
  model?: string;
  configVersion?: string;
}

/** A ClickHouse string literal (backslash escapes: 18.16 reads `\\`, `\'` and `\0`). */
export function clickhouseString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\0', '\\0')}'`;
}

/**
 * Why a row is left out, as the reader decides it (the first that applies): 0 kept, 1 model, 2 config version,
 * 3 future (after now), 4 before the window.
 */
function exclusionSql(spec: ClickhouseWindowSpec): string {
  const arms: string[] = [];
  if (spec.model !== undefined) arms.push(`reviewer_id != ${clickhouseString(spec.model)} AND model_id != ${clickhouseString(spec.model)}, 1`);
  if (spec.configVersion !== undefined) arms.push(`isNull(council_config_version) OR council_config_version != ${clickhouseString(spec.configVersion)}, 2`);
  arms.push(`timestamp_ms > ${integer(spec.nowMs)}, 3`);
  if (spec.earliestMs !== null) arms.push(`timestamp_ms < ${integer(spec.earliestMs)}, 4`);
  return `multiIf(${arms.join(', ')}, 0)`;
}

function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a whole number of milliseconds: ${value}`);
  return String(value);
}

/** The rows the window keeps: `exclusionSql` = 0, as a WHERE condition. */
function keptSql(spec: ClickhouseWindowSpec): string {
  return `${exclusionSql(spec)} = 0`;
}

/**
 * One row: the records (rows after FINAL: copies of one record are one) and how many each filter left out, over the
 * whole table. Columns: records, model, config_version, future, before_window.
 */
export function clickhouseWindowTotalsSql(spec: ClickhouseWindowSpec): string {
  return `SELECT toUInt32(count()) AS records, toUInt32(countIf(why = 1)) AS model, toUInt32(countIf(why = 2)) AS config_version,
  toUInt32(countIf(why = 3)) AS future, toUInt32(countIf(why = 4)) AS before_window
FROM (SELECT ${exclusionSql(spec)} AS why FROM ${spec.table} FINAL)`;
}

/**
 * One row per session with a record in the window: its id, its earliest record's time in the window (the key
 * `maxSessions` orders sessions by) and its records in the window, repeats included (what `beyondSessions` counts).
 */
export function clickhouseWindowSessionsSql(spec: ClickhouseWindowSpec): string {
  return `SELECT session_id AS session, toString(min(timestamp_ms)) AS first_ms, toUInt32(count()) AS records
FROM ${spec.table} FINAL WHERE ${keptSql(spec)} GROUP BY session_id`;
}

/** Which sessions a map query summarises. */
export interface ClickhouseSessionRange {
  /** The oldest session kept by `maxSessions` (its first time and id): it and every later one; null for all. */
  oldest: { firstMs: number; session: string } | null;
  /** Sessions with ids (compared as ClickHouse compares strings: bytes) from `from` (inclusive) to `to` (exclusive). */
  from: string | null;
  to: string | null;
}

/** The columns of the map's rows, in order (see `clickhouseSummarySql`). */
export const clickhouseSummaryColumns = [
  'session',
  'time_ms',
  'records',
  'members',
  'config_versions',
  'duplicates',
  'conflicts',
  'not_display_order',
  'simulated',
  'reviewer_names',
  'score_columns',
  'score_records',
  'score_xtx',
  'score_xty',
  'score_yty',
  'score_answers',
  'score_pairs',
  'scored_records',
  'mean_score',
  'length_r',
  'length_answers',
  'position_spread',
  'primacy',
  'recency',
  'anchoring',
  'positions',
  'reviewers',
  'positioned_scores',
  'rank_only',
  'score_blocks',
  'rank_blocks',
] as const;

/** A layer of the query: `[alias, expression]` pairs, each expression free to use the aliases before it. */
type Layer = readonly (readonly [string, string])[];

const select = (layer: Layer): string => layer.map(([alias, expression]) => `  ${expression} AS ${alias}`).join(',\n');

/** `n` ones (UInt64), `n` zeros (Float64): sumMap's count column (which keeps a cell whose sum is 0) and its zero-filled prefix. */
const ones = (n: string): string => `arrayResize(emptyArrayUInt64(), ${n}, toUInt64(1))`;
const zeros = (n: string): string => `arrayResize(emptyArrayFloat64(), ${n}, 0.)`;
/** The arrays of an array of arrays, concatenated in order (18.16 has no arrayFlatten). */
const flatten = (arrays: string): string => `arrayReduce('groupArrayArray', ${arrays})`;
/** Keeps the elements of `array` where `flags` is non-zero. */
const where = (array: string, flags: string): string => `arrayFilter((x_, f_) -> f_, ${array}, ${flags})`;

/**
 * Pearson's r as `pearsonR` computes it — means, then the centred sums, each a left fold in the arrays' order —
 * null below `minimum` pairs or when a side has no variance. `x` and `y` are Float64 arrays of equal length.
 */
function pearson(prefix: string, x: string, y: string): Layer {
  const p = (name: string): string => `${prefix}_${name}`;
  return [
    [p('n'), `length(${x})`],
    [p('mx'), `arraySum(${x}) / ${p('n')}`],
    [p('my'), `arraySum(${y}) / ${p('n')}`],
    [p('sxx'), `arraySum(arrayMap(u_ -> (u_ - ${p('mx')}) * (u_ - ${p('mx')}), ${x}))`],
    [p('syy'), `arraySum(arrayMap(v_ -> (v_ - ${p('my')}) * (v_ - ${p('my')}), ${y}))`],
    [p('sxy'), `arraySum(arrayMap((u_, v_) -> (u_ - ${p('mx')}) * (v_ - ${p('my')}), ${x}, ${y}))`],
    [p('r'), `if(${p('n')} < 3 OR ${p('sxx')} = 0 OR ${p('syy')} = 0, NULL, greatest(-1., least(1., ${p('sxy')} / sqrt(${p('sxx')} * ${p('syy')}))))`],
  ];
}

/**
 * The map: one row per session of the window (within `range`), its columns `clickhouseSummaryColumns`. Names are
 * left to the caller to sort (as JS sorts them) and to spell (`score_columns` holds codes: reviewer r = r,
 * position p = 2³² + p, self r = 2³³ + r, r indexing `reviewer_names` from 1).
 */
export function clickhouseSummarySql(spec: ClickhouseWindowSpec & { range: ClickhouseSessionRange }): string {
  const { range } = spec;
  const conditions = [keptSql(spec)];
  if (range.from !== null) conditions.push(`session_id >= ${clickhouseString(range.from)}`);
  if (range.to !== null) conditions.push(`session_id < ${clickhouseString(range.to)}`);
  if (range.oldest !== null) {
    // The last maxSessions sessions by (earliest time in the window, id), ids compared as JS compares strings.
    const utf16 = (s: string): string => `convertCharset(${s}, 'UTF-8', 'UTF-16BE')`;
    const first = integer(range.oldest.firstMs);
    conditions.push(`session_id IN (SELECT session_id FROM ${spec.table} WHERE ${keptSql(spec)} GROUP BY session_id
      HAVING min(timestamp_ms) > ${first} OR (min(timestamp_ms) = ${first} AND ${utf16('session_id')} >= ${utf16(clickhouseString(range.oldest.session))}))`);
  }

  // ---- A: each session's rows (a record loaded twice is two rows until a merge; B keeps one) ----
  const rowColumns: Layer = [
    ['a_ord', 'ord'],
    ['a_key', 'record_key'],
    ['a_rv', 'reviewer_id'],
    ['a_cd', 'model_id'],
    ['a_ps', 'position'],
    ['a_ln', 'response_length_chars'],
    // NaN for no score and 4294967295 for no rank, as the JS columns hold them (groupArray would skip NULLs).
    ['a_sc', 'ifNull(score_value, nan)'],
    ['a_rk', `ifNull(rank_position, toUInt32(${noRank}))`],
    ['a_cfg', "ifNull(council_config_version, '')"],
    ['a_nocfg', 'isNull(council_config_version)'],
    ['a_ts', 'timestamp_ms'],
    ['a_cat', "ifNull(query_category, '')"],
    ['a_nocat', 'isNull(query_category)'],
    ['a_pido', 'position_is_display_order'],
  ];
  const layerA = `SELECT session_id AS session, min(timestamp_ms) AS time_ms,
${rowColumns.map(([alias, column]) => `  groupArray(${column}) AS ${alias}`).join(',\n')}
FROM ${spec.table}
WHERE ${conditions.join('\n  AND ')}
GROUP BY session_id`;

  // ---- B: read order (ord, then key), one row per record key (the first), then one record per (reviewer, member) ----
  const fields = rowColumns.map(([alias]) => alias.slice(2));
  const layerB: Layer = [
    ...fields.map((f): [string, string] => [`b_${f}`, `arraySort((x_, o_, k_) -> (o_, k_), a_${f}, a_ord, a_key)`]),
    ['b_once', 'arrayEnumerateUniq(b_key)'],
    ...fields.filter((f) => f !== 'ord' && f !== 'key').map((f): [string, string] => [`c_${f}`, `arrayFilter((x_, u_) -> u_ = 1, b_${f}, b_once)`]),
    ['c_pair', 'arrayEnumerateUniq(c_rv, c_cd)'],
    // A later record of a (reviewer, member) is a duplicate when every field the reader compares equals the first's:
    // it then met its tuple before among all records but not among the later ones alone.
    ['c_scnan', 'arrayMap(x_ -> isNaN(x_), c_sc)'],
    ['c_scv', 'arrayMap(x_ -> if(isNaN(x_), 0., x_), c_sc)'],
    ['c_later', 'arrayMap(u_ -> u_ > 1, c_pair)'],
    ['c_all', 'arrayEnumerateUniq(c_rv, c_cd, c_ps, c_ln, c_scnan, c_scv, c_rk, c_nocfg, c_cfg, c_ts, c_nocat, c_cat, c_pido)'],
    [
      'c_among_later',
      `arrayEnumerateUniq(${['rv', 'cd', 'ps', 'ln', 'scnan', 'scv', 'rk', 'nocfg', 'cfg', 'ts', 'nocat', 'cat', 'pido'].map((f) => where(`c_${f}`, 'c_later')).join(', ')})`,
    ],
    ['duplicates', `toUInt32(arrayCount((a_, l_) -> a_ > l_, ${where('c_all', 'c_later')}, c_among_later))`],
    ['conflicts', 'toUInt32(arrayCount(c_later) - duplicates)'],
    ...['rv', 'cd', 'ps', 'ln', 'sc', 'rk', 'cfg', 'nocfg', 'pido'].map((f): [string, string] => [`k_${f}`, `arrayFilter((x_, u_) -> u_ = 1, c_${f}, c_pair)`]),
  ];

  // ---- C: the indicators (session-indicators.ts), records in read order ----
  const indicators: Layer = [
    ['records', 'toUInt32(length(k_rv))'],
    ['members', 'arrayDistinct(arrayConcat(k_rv, k_cd))'],
    ['config_versions', "arrayDistinct(arrayMap((c_, n_) -> if(n_, '(none)', c_), k_cfg, k_nocfg))"],
    ['not_display_order', 'toUInt32(countEqual(k_pido, 0))'],
    ['simulated', "toUInt32(arrayCount((r_, c_) -> substring(r_, 1, 10) = 'simulated:' OR substring(c_, 1, 10) = 'simulated:', k_rv, k_cd))"],
    // Reviewers and members by first appearance (1-based), as the JS's revIds and candIds.
    ['ri', 'arrayEnumerateDense(k_rv)'],
    ['ci', 'arrayEnumerateDense(k_cd)'],
    ['reviewer_names', 'arrayDistinct(k_rv)'],
    ['rix', 'arrayEnumerate(reviewer_names)'],
    ['scd', 'arrayMap(x_ -> NOT isNaN(x_), k_sc)'],
    ['s_sc', where('k_sc', 'scd')],
    ['s_ri', where('ri', 'scd')],
    ['s_ci', where('ci', 'scd')],
    ['s_ps', where('k_ps', 'scd')],
    ['s_cd', where('k_cd', 'scd')],
    ['s_rv', where('k_rv', 'scd')],
    ['s_ln', where('k_ln', 'scd')],
    ['scored_records', 'toUInt32(length(s_sc))'],
    ['s_mean', 'if(scored_records > 0, arraySum(s_sc) / scored_records, 0.)'],
    ['mean_score', 'if(scored_records > 0, s_mean, NULL)'],
    // Length: each member's first record's length against its mean score, members in first-appearance order.
    ['cand_len', 'arrayFilter((x_, u_) -> u_ = 1, k_ln, arrayEnumerateUniq(k_cd))'],
    ['cand_n', 'arrayMap(c_ -> toUInt64(countEqual(s_ci, c_)), arrayEnumerate(cand_len))'],
    ['cand_sum', 'arrayMap(c_ -> arraySum(arrayFilter((x_, k_) -> k_ = c_, s_sc, s_ci)), arrayEnumerate(cand_len))'],
    ['len_x', 'arrayFilter((l_, n_) -> n_ > 0, arrayMap(l_ -> toFloat64(l_), cand_len), cand_n)'],
    ['len_y', 'arrayFilter((y_, n_) -> n_ > 0, arrayMap((s_, n_) -> s_ / n_, cand_sum, cand_n), cand_n)'],
    ...pearson('len', 'len_x', 'len_y'),
    ['length_r', 'len_r'],
    ['length_answers', 'toUInt32(len_n)'],
    // Per reviewer (1…R): its scores' sum and sum of squares in read order, counts, first and last position scored.
    ['rev_sum', 'arrayMap(b_ -> arraySum(arrayFilter((x_, r_) -> r_ = b_, s_sc, s_ri)), rix)'],
    ['rev_sq', 'arrayMap(b_ -> arraySum(arrayMap(y_ -> y_ * y_, arrayFilter((x_, r_) -> r_ = b_, s_sc, s_ri))), rix)'],
    ['rev_n', 'arrayMap(b_ -> toUInt64(countEqual(s_ri, b_)), rix)'],
    ['rev_k', `arrayMap(b_ -> toUInt64(arrayCount((r_, k_) -> r_ = b_ AND k_ != ${noRank}, ri, k_rk)), rix)`],
    ['rev_first', "arrayMap(b_ -> arrayReduce('min', arrayFilter((p_, r_) -> r_ = b_, s_ps, s_ri)), rix)"],
    ['rev_last', "arrayMap(b_ -> arrayReduce('max', arrayFilter((p_, r_) -> r_ = b_, s_ps, s_ri)), rix)"],
    ['rev_mean', 'arrayMap((s_, n_) -> s_ / n_, rev_sum, rev_n)'],
    // Within-reviewer centred scores (reviewers with 2 scores or more), then in the JS's fold order: reviewer by
    // reviewer (first appearance), each reviewer's records in read order.
    ['s_cen', 'arrayMap((x_, r_) -> x_ - rev_mean[r_], s_sc, s_ri)'],
    ['s_in', 'arrayMap(r_ -> rev_n[r_] >= 2, s_ri)'],
    ['s_order', `arrayMap((r_, i_) -> r_ * ${shift32} + i_, s_ri, arrayEnumerate(s_ri))`],
    ['q_order', where('s_order', 's_in')],
    ['q_cen', `arraySort((x_, o_) -> o_, ${where('s_cen', 's_in')}, q_order)`],
    ['q_ps', `arraySort((x_, o_) -> o_, ${where('s_ps', 's_in')}, q_order)`],
    ['q_ri', `arraySort((x_, o_) -> o_, ${where('s_ri', 's_in')}, q_order)`],
    ['q_first', 'arrayMap((p_, r_) -> p_ = rev_first[r_], q_ps, q_ri)'],
    ['q_last', 'arrayMap((p_, r_) -> p_ = rev_last[r_], q_ps, q_ri)'],
    ['primacy_v', where('q_cen', 'q_first')],
    ['recency_v', where('q_cen', 'q_last')],
    ['primacy', 'if(length(primacy_v) > 0, arraySum(primacy_v) / length(primacy_v), NULL)'],
    ['recency', 'if(length(recency_v) > 0, arraySum(recency_v) / length(recency_v), NULL)'],
    // Rank points (reviewers that ranked 2 answers or more): 1 for first … 0 for last, centred per reviewer.
    ['r_in', `arrayMap((k_, r_) -> k_ != ${noRank} AND rev_k[r_] >= 2, k_rk, ri)`],
    ['r_ri', where('ri', 'r_in')],
    ['r_ps', where('k_ps', 'r_in')],
    ['r_pt', 'arrayMap((k_, r_) -> 1 - least(k_, rev_k[r_] - 1) / (rev_k[r_] - 1), ' + where('k_rk', 'r_in') + ', r_ri)'],
    ['rev_pt', 'arrayMap(b_ -> arraySum(arrayFilter((x_, r_) -> r_ = b_, r_pt, r_ri)), rix)'],
    ['r_cen', 'arrayMap((x_, r_) -> x_ - rev_pt[r_] / rev_k[r_], r_pt, r_ri)'],
    ['r_order', `arrayMap((r_, i_) -> r_ * ${shift32} + i_, r_ri, arrayEnumerate(r_ri))`],
    ['rq_ps', 'arraySort((x_, o_) -> o_, r_ps, r_order)'],
    ['rq_cen', 'arraySort((x_, o_) -> o_, r_cen, r_order)'],
    // Per position shown (ascending): the mean centred score and rank point there.
    ['pos_at', 'arraySort(arrayDistinct(q_ps))'],
    ['pos_mean', 'arrayMap(p_ -> arraySum(arrayFilter((v_, q_) -> q_ = p_, q_cen, q_ps)) / countEqual(q_ps, p_), pos_at)'],
    ['rank_at', 'arraySort(arrayDistinct(rq_ps))'],
    ['rank_mean', 'arrayMap(p_ -> arraySum(arrayFilter((v_, q_) -> q_ = p_, rq_cen, rq_ps)) / countEqual(rq_ps, p_), rank_at)'],
    [
      'positions',
      'arrayMap(p_ -> tuple(p_, if(has(pos_at, p_), pos_mean[indexOf(pos_at, p_)], NULL), if(has(rank_at, p_), rank_mean[indexOf(rank_at, p_)], NULL)), arraySort(arrayDistinct(arrayConcat(pos_at, rank_at))))',
    ],
    ['sp_n', 'length(pos_mean)'],
    ['sp_mean', 'arraySum(pos_mean) / sp_n'],
    ['position_spread', 'if(sp_n >= 2, greatest(0., arraySum(arrayMap(v_ -> v_ * v_, pos_mean)) / sp_n - sp_mean * sp_mean), NULL)'],
    // Anchoring: display position against |score − the session's mean score|, scored records in read order.
    ...pearson('an', 'arrayMap(p_ -> toFloat64(p_), s_ps)', 'arrayMap(x_ -> abs(x_ - s_mean), s_sc)'),
    ['anchoring', 'an_r'],
    // Reviewers shown the same order (the same position for every member) share a group, numbered by first reviewer.
    ['shown', `arrayMap((c_, p_) -> c_ * ${shift32} + p_, ci, k_ps)`],
    ['rev_shown', 'arrayMap(b_ -> arraySort(arrayFilter((x_, r_) -> r_ = b_, shown, ri)), rix)'],
    ['orders', 'arrayDistinct(rev_shown)'],
    ['rev_group', 'arrayMap(x_ -> toUInt32(indexOf(orders, x_) - 1), rev_shown)'],
    ['reviewers', 'arrayMap(b_ -> tuple(reviewer_names[b_], rev_n[b_], rev_sum[b_], rev_sq[b_]), arrayFilter(b_ -> rev_n[b_] > 0, rix))'],
    ['positioned_scores', 'arrayExists(n_ -> n_ >= 2, rev_n)'],
    ['rank_only', 'arrayExists((k_, n_) -> k_ >= 2 AND n_ < 2, rev_k, rev_n)'],
    [
      'score_blocks',
      'arrayMap(b_ -> tuple(rev_group[b_], arrayFilter((x_, r_) -> r_ = b_, s_cen, s_ri), arrayFilter((p_, r_) -> r_ = b_, s_ps, s_ri)), arrayFilter(b_ -> rev_n[b_] >= 2, rix))',
    ],
    [
      'rank_blocks',
      'arrayMap(b_ -> tuple(rev_group[b_], arrayFilter((x_, r_) -> r_ = b_, r_cen, r_ri), arrayFilter((p_, r_) -> r_ = b_, r_ps, r_ri)), arrayFilter(b_ -> rev_k[b_] >= 2 AND rev_n[b_] < 2, rix))',
    ],
  ];

  // ---- D: the score model's sums (score-session-stats.ts): scored records by author name (as JS orders strings), then read order ----
  const score: Layer = [
    ['authors_sorted', "arraySort(x_ -> convertCharset(x_, 'UTF-8', 'UTF-16BE'), arrayDistinct(s_cd))"],
    ['l_order', `arrayMap((c_, i_) -> indexOf(authors_sorted, c_) * ${shift32} + i_, s_cd, arrayEnumerate(s_cd))`],
    ...['rv', 'cd', 'ps', 'sc', 'ln', 'ri'].map((f): [string, string] => [`l_${f}`, `arraySort((x_, o_) -> o_, s_${f}, l_order)`]),
    ['l_self', 'arrayMap((r_, c_) -> r_ = c_, l_rv, l_cd)'],
    ['l_a', 'arrayEnumerateDense(l_cd)'],
    // A record's design columns (reviewer, position, self on its own answer); local columns in first-touched order.
    ['l_codes', `arrayMap((r_, p_, f_) -> if(f_, [toUInt64(r_), ${shift32} + p_, ${2 * shift32} + r_], [toUInt64(r_), ${shift32} + p_]), l_ri, l_ps, l_self)`],
    ['score_columns', `arrayDistinct(${flatten('l_codes')})`],
    ['m', 'toUInt64(length(score_columns))'],
    ['l_row', 'arrayMap(row_ -> arrayMap(c_ -> toUInt64(indexOf(score_columns, c_) - 1), row_), l_codes)'],
    // Per answer: count, mean score (Σy · (1/n), as AnswerMean), the length of its first scored record.
    ['a_author', 'arrayDistinct(l_cd)'],
    ['a_n', 'arrayMap(a_ -> toUInt64(countEqual(l_a, a_)), arrayEnumerate(a_author))'],
    ['a_count', 'length(a_n)'],
    ['a_share', 'arrayMap(n_ -> 1 / n_, a_n)'],
    ['a_mean', 'arrayMap((a_, s_) -> arraySum(arrayFilter((x_, b_) -> b_ = a_, l_sc, l_a)) * s_, arrayEnumerate(a_author), a_share)'],
    ['a_len', 'arrayFilter((x_, u_) -> u_ = 1, l_ln, arrayEnumerateUniq(l_a))'],
    // Mean rows: `share` added once per record setting the column, from 0.
    ['slot_col', flatten('l_row')],
    ['slot_a', flatten('arrayMap((row_, a_) -> arrayResize(emptyArrayUInt32(), length(row_), a_), l_row, l_a)')],
    ['a_slots', 'arrayMap(a_ -> arrayFilter((c_, b_) -> b_ = a_, slot_col, slot_a), arrayEnumerate(a_author))'],
    ['a_row', 'arrayMap((slots_, s_) -> arrayMap(c_ -> arraySum(arrayResize(emptyArrayFloat64(), countEqual(slots_, c_), s_)), range(m)), a_slots, a_share)'],
    // X̃'ỹ, the columns' record counts and ỹ'ỹ, over answers scored twice or more, in list order.
    ['l_big', 'arrayMap(a_ -> a_n[a_] >= 2, l_a)'],
    ['l_y', 'arrayMap((x_, a_) -> x_ - a_mean[a_], l_sc, l_a)'],
    ['slot_y', flatten('arrayMap((row_, y_) -> arrayResize(emptyArrayFloat64(), length(row_), y_), l_row, l_y)')],
    ['slot_big', flatten('arrayMap((row_, f_) -> arrayResize(emptyArrayUInt8(), length(row_), f_), l_row, l_big)')],
    ['big_col', where('slot_col', 'slot_big')],
    ['big_y', where('slot_y', 'slot_big')],
    ['score_xty', 'arrayMap(c_ -> arraySum(arrayFilter((y_, k_) -> k_ = c_, big_y, big_col)), range(m))'],
    ['score_records', 'arrayMap(c_ -> toUInt32(countEqual(big_col, c_)), range(m))'],
    ['score_yty', `arraySum(arrayMap(y_ -> y_ * y_, ${where('l_y', 'l_big')}))`],
    // X̃'X̃: per answer scored twice or more, in order, −n·x̄ₐx̄_b over its support, then +1 per record setting both.
    ['big', 'arrayMap(n_ -> n_ >= 2, a_n)'],
    ['b_supp', `arrayMap(row_ -> arrayFilter((l_, v_) -> v_ > 0, range(m), row_), ${where('a_row', 'big')})`],
    ['b_suppv', `arrayMap(row_ -> arrayFilter(v_ -> v_ > 0, row_), ${where('a_row', 'big')})`],
    ['b_rows', `arrayMap(a_ -> arrayFilter((row_, b_) -> b_ = a_, l_row, l_a), ${where('arrayEnumerate(a_n)', 'big')})`],
    [
      'x_keys',
      `arrayMap((s_, rows_) -> arrayConcat(${flatten('arrayMap(i_ -> arrayMap(j_ -> i_ * m + j_, s_), s_)')}, ${flatten(`arrayMap(row_ -> ${flatten('arrayMap(i_ -> arrayMap(j_ -> i_ * m + j_, row_), row_)')}, rows_)`)}), b_supp, b_rows)`,
    ],
    [
      'x_vals',
      `arrayMap((v_, n_, k_) -> arrayConcat(${flatten('arrayMap(vi_ -> arrayMap(vj_ -> -((n_ * vi_) * vj_), v_), v_)')}, arrayResize(emptyArrayFloat64(), length(k_) - length(v_) * length(v_), 1.)), b_suppv, ${where('a_n', 'big')}, x_keys)`,
    ],
    [
      'score_xtx',
      `tupleElement(arrayReduce('sumMap', arrayConcat([range(m * m)], x_keys), arrayConcat([${zeros('m * m')}], x_vals), arrayMap(k_ -> ${ones('length(k_)')}, arrayConcat([range(m * m)], x_keys))), 2)`,
    ],
    ['score_answers', 'arrayMap((c_, l_, n_, y_, row_) -> tuple(c_, l_, n_, y_, row_), a_author, a_len, a_n, a_mean, a_row)'],
    [
      'score_pairs',
      `arrayFilter((t_, f_) -> f_, arrayMap((r_, c_, p_, y_) -> tuple(r_, c_, p_, y_), l_rv, l_cd, l_ps, l_y), arrayMap((b_, s_) -> b_ AND NOT s_, l_big, l_self))`,
    ],
  ];

  return `SELECT ${clickhouseSummaryColumns.join(', ')} FROM (
SELECT session, time_ms, duplicates, conflicts,
${select([...indicators, ...score])}
FROM (
SELECT session, time_ms,
${select(layerB)}
FROM (
${layerA}
)))`;
}
