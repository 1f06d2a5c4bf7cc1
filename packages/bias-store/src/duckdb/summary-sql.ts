/**
 * The per-session summaries (`BiasSessionSummary` of @council/bias-audit, shape v1) as DuckDB SQL: the map step of
 * the cross-session report, run by DuckDB directly over JSONL stores (plain or gzip) or a Parquet export. The one
 * place this dialect's SQL lives. Each statement builds a temporary table; the last selects one row per session
 * as one JSON object whose keys are `summaryRowColumns`, in that order, each named after the summary's field it fills.
 *
 * The summaries are the JS map's (`summarizeBiasSessions` of @council/bias-audit) to the bit, so that a report is
 * the same whichever engine ran the map. Floating-point addition is not associative, so every sum here is the JS's
 * own: a sequential left fold (`fsum`, DuckDB's `list_reduce`, which folds left to right) over a list built in the
 * order the JS visits the records, and every mean, product and quotient formed as the JS forms it. The orders:
 * - a session's records in read order (`ord`: file, then line or row); the indicators visit them so, per reviewer
 *   (reviewers in the order of their first record) where the JS loops over reviewers;
 * - the score model visits a session's scored records answer by answer, answers by their author's name (as JS's `<`
 *   orders names), each in read order; its columns are numbered in the order these records first set them (`reviewer:`,
 *   `position:`, then `self:` within a record);
 * - X̃'X̃ is formed as the JS forms it, answer by answer: each cell less (n·x̄ₐ)·x̄_b, then plus 1 for each record
 *   that sets both columns; an answer's mean row adds 1/n once per record.
 * What DuckDB does slowly, and is avoided: ORDER BY inside an aggregate over many small groups (a sorted buffer per
 * group), and lambdas that capture a list (it is copied per element); DuckDB's own cost here is X̃'X̃, m² cells a
 * session each folded over its answers (see `unrolledXtx`).
 */

/** The columns of the final row per session, in order: the summary's documented fields. */
export const summaryRowColumns = [
  'session',
  'time_ms',
  'records',
  'members',
  'config_versions',
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

/** Sequential sums, Pearson's r as `pearsonR` computes it, the JS's "add 1, c times", and a name's UTF-16 code units. */
const macros = [
  `CREATE OR REPLACE TEMP MACRO fsum(l) AS list_reduce(l, (a, b) -> a + b, 0::DOUBLE)`,
  // Over a list of {x, y} and their means: the centred sums, each a sequential fold, as `pearsonR`.
  `CREATE OR REPLACE TEMP MACRO pearson_of(s) AS
     CASE WHEN s IS NULL OR s.sxx = 0 OR s.syy = 0 THEN NULL ELSE greatest(-1::DOUBLE, least(1::DOUBLE, s.sxy / sqrt(s.sxx * s.syy))) END`,
  `CREATE OR REPLACE TEMP MACRO pearson_sums(l, mx, my) AS
     {'sxx': fsum(list_transform(l, e -> (e.x - mx) * (e.x - mx))), 'syy': fsum(list_transform(l, e -> (e.y - my) * (e.y - my))),
      'sxy': fsum(list_transform(l, e -> (e.x - mx) * (e.y - my)))}`,
  `CREATE OR REPLACE TEMP MACRO plus_ones(v, c) AS
     CASE WHEN c = 0 THEN v WHEN c = 1 THEN v + 1 ELSE list_reduce(list_transform(range(c::BIGINT), t -> 1::DOUBLE), (a, b) -> a + b, v) END`,
  `CREATE OR REPLACE TEMP MACRO utf16_units(s) AS flatten(list_transform(string_split(s, ''), ch -> CASE WHEN unicode(ch) < 65536 THEN [unicode(ch)]
     ELSE [55296 + (unicode(ch) - 65536) // 1024, 56320 + (unicode(ch) - 65536) % 1024] END))`,
  // A list of structs whose first field orders them, as the list of its `v` fields (ordered aggregates are slow in
  // DuckDB over many small groups: lists are collected unordered, then sorted).
  `CREATE OR REPLACE TEMP MACRO values_of(l) AS list_transform(list_sort(l), e -> e.v)`,
];

/**
 * X̃'X̃ is folded over a session's answers (scored twice or more) with the answers unrolled into columns, for sessions
 * with at most this many answers; sessions with more (councils of more than this many members) take a slower
 * general path, a fold over lists.
 */
export const UNROLLED_ANSWERS = 8;

const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** The X̃'X̃ cells of sessions with at most `UNROLLED_ANSWERS` answers, as one fold per cell (see `xtxStatements`). */
function unrolledXtx(): string[] {
  const T = UNROLLED_ANSWERS;
  // Each column's values in answer t, from its list of {t, …} (a lookup per t: cheaper than 5·T filtered aggregates).
  const at = (t: number, field: string, none: number): string => `coalesce(l[list_position(ts, ${t})].${field}, ${none})`;
  const pivot = upTo(T)
    .map((t) => `${at(t, 'r', 0)} AS r${t}, ${at(t, 'k', 0)} AS k${t}, ${at(t, 'o_r', -1)} AS or${t}, ${at(t, 'o_p', -1)} AS op${t}, ${at(t, 'o_s', -1)} AS os${t}`)
    .join(',\n              ');
  const count = (t: number): string =>
    `CASE WHEN a.j = b.j THEN a.k${t} WHEN a.or${t} >= 0 THEN (b.j = a.or${t} OR b.j = a.op${t} OR b.j = a.os${t})::INTEGER
          WHEN b.or${t} >= 0 THEN (a.j = b.or${t} OR a.j = b.op${t} OR a.j = b.os${t})::INTEGER ELSE 0 END`;
  // One projection per answer, so that each step reads the last one's value as a column (a nested expression would
  // repeat it in each branch of plus_ones).
  let cells = `SELECT s.session, a.j AS ja, b.j AS jb, 0::DOUBLE AS v, ${upTo(T).map((t) => `s.n${t}, a.r${t} AS ar${t}, b.r${t} AS br${t}, ${count(t)} AS c${t}`).join(', ')}
       FROM xtx_pivot a JOIN xtx_pivot b USING (session) JOIN xtx_session s USING (session)`;
  for (const t of upTo(T)) cells = `SELECT * REPLACE (plus_ones(v - (n${t} * ar${t}) * br${t}, c${t}) AS v) FROM (${cells})`;
  return [
    `CREATE OR REPLACE TEMP TABLE xtx_session AS
       SELECT session, ${upTo(T).map((t) => `coalesce(max(n) FILTER (WHERE t = ${t}), 0)::DOUBLE AS n${t}`).join(', ')}
       FROM answer GROUP BY session HAVING coalesce(max(t), 0) <= ${T}`,
    `CREATE OR REPLACE TEMP TABLE xtx_pivot AS
       SELECT session, j, ${pivot}
       FROM (SELECT *, list_transform(l, e -> e.t) AS ts
             FROM (SELECT c.session, c.j, coalesce(list({'t': a.t, 'r': a.r, 'k': a.k, 'o_r': a.o_r, 'o_p': a.o_p, 'o_s': a.o_s}) FILTER (WHERE a.t IS NOT NULL), []) AS l
                   FROM score_col c JOIN xtx_session USING (session) LEFT JOIN (SELECT * FROM col_answer WHERE t IS NOT NULL) a USING (session, j)
                   GROUP BY c.session, c.j))`,
    `CREATE OR REPLACE TEMP TABLE xtx AS
       SELECT session, values_of(list({'i': ja * m + jb, 'v': v})) AS xtx
       FROM (${cells}) JOIN (SELECT session, any_value(m) AS m FROM score_col GROUP BY session) USING (session)
       GROUP BY session`,
  ];
}

/**
 * The general path: each answer (scored twice or more, in order) as one list of numbers — n, then over the columns
 * its mean row R, its counts K and the columns of the one record owning each reviewer or self column (-1: none) —
 * folded over the session's m² cells.
 */
function generalXtx(): string {
  return `INSERT INTO xtx
    SELECT s.session, list_reduce(s.enc, (acc, e) -> list_transform(range(s.m * s.m), i -> plus_ones(
        acc[i + 1] - (e[1] * e[2 + i // s.m]) * e[2 + i % s.m],
        CASE WHEN i // s.m = i % s.m THEN e[2 + s.m + i // s.m]
             WHEN e[2 + 2 * s.m + i // s.m] >= 0 THEN (e[2 + 2 * s.m + i // s.m] = i % s.m OR e[2 + 3 * s.m + i // s.m] = i % s.m OR e[2 + 4 * s.m + i // s.m] = i % s.m)::INTEGER
             WHEN e[2 + 2 * s.m + i % s.m] >= 0 THEN (e[2 + 2 * s.m + i % s.m] = i // s.m OR e[2 + 3 * s.m + i % s.m] = i // s.m OR e[2 + 4 * s.m + i % s.m] = i // s.m)::INTEGER
             ELSE 0 END)),
      list_transform(range(s.m * s.m), i -> 0::DOUBLE)) AS xtx
    FROM (SELECT session, any_value(m) AS m, list_transform(list_sort(list({'t': t, 'e': enc})), x -> x.e) AS enc
          FROM (SELECT d.session, d.t, any_value(d.m) AS m,
                       list_concat([any_value(d.n)::DOUBLE], values_of(list({'j': d.j, 'v': d.r})), values_of(list({'j': d.j, 'v': d.k::DOUBLE})),
                                   values_of(list({'j': d.j, 'v': d.o_r::DOUBLE})), values_of(list({'j': d.j, 'v': d.o_p::DOUBLE})), values_of(list({'j': d.j, 'v': d.o_s::DOUBLE}))) AS enc
                FROM answer_dense d WHERE d.t IS NOT NULL
                GROUP BY d.session, d.t)
          GROUP BY session) s`;
}

/** The statements computing the summaries from the table `kept` (`duckdbRecordStatements`); the last returns the rows. */
export function duckdbSummaryStatements(): string[] {
  return [
    ...macros,
    // ---- score: the score model's sums ----
    // Answers in their authors' name order as JS's < orders names: by UTF-16 code units (DuckDB orders text by code
    // points, which differs past U+FFFF).
    `CREATE OR REPLACE TEMP TABLE author_order AS
       SELECT m, row_number() OVER (ORDER BY utf16_units(m)) AS mi FROM (SELECT DISTINCT candidate AS m FROM kept)`,
    `CREATE OR REPLACE TEMP TABLE scored AS
       SELECT k.session, k.candidate, o.mi, k.ord, k.reviewer, k.position, k.score, k.len
       FROM kept k JOIN author_order o ON o.m = k.candidate WHERE k.score IS NOT NULL`,
    // Each answer: its scored records in read order, its mean score Σy·(1/n) as `AnswerMean` forms it, and t, its
    // place among the session's answers scored twice or more.
    `CREATE OR REPLACE TEMP TABLE answer AS
       SELECT session, candidate, mi, n, share, recs[1].len AS len, fsum(list_transform(recs, r -> r.score)) * share AS mean_score,
              CASE WHEN n >= 2 THEN row_number() OVER (PARTITION BY session, n >= 2 ORDER BY mi) END AS t
       FROM (SELECT session, candidate, any_value(mi) AS mi, count(*)::INTEGER AS n, 1::DOUBLE / count(*) AS share,
                    list_sort(list({'ord': ord, 'score': score, 'len': len})) AS recs
             FROM scored GROUP BY session, candidate)`,
    // The session's columns in the order its records first set them (answer, record, then reviewer/position/self).
    `CREATE OR REPLACE TEMP TABLE score_col AS
       SELECT session, kind, name, position, (row_number() OVER (PARTITION BY session ORDER BY first) - 1)::INTEGER AS j,
              count(*) OVER (PARTITION BY session) AS m
       FROM (SELECT session, 0 AS kind, reviewer AS name, NULL::DOUBLE AS position, min({'mi': mi, 'ord': ord, 'slot': 0}) AS first FROM scored GROUP BY session, reviewer
             UNION ALL SELECT session, 1, NULL, position, min({'mi': mi, 'ord': ord, 'slot': 1}) FROM scored GROUP BY session, position
             UNION ALL SELECT session, 2, reviewer, NULL, min({'mi': mi, 'ord': ord, 'slot': 2}) FROM scored WHERE reviewer = candidate GROUP BY session, reviewer)`,
    // Each scored record: its deviation y and the columns it sets (rj, pj, and sj or -1).
    `CREATE OR REPLACE TEMP TABLE srec AS
       SELECT s.session, s.candidate, s.mi, s.ord, s.reviewer, s.position, a.n, a.t, a.share, s.score - a.mean_score AS y, r.j AS rj, p.j AS pj,
              coalesce(CASE WHEN s.reviewer = s.candidate THEN f.j END, -1) AS sj
       FROM scored s JOIN answer a USING (session, candidate)
       JOIN (SELECT session, name, j FROM score_col WHERE kind = 0) r ON r.session = s.session AND r.name = s.reviewer
       JOIN (SELECT session, position, j FROM score_col WHERE kind = 1) p ON p.session = s.session AND p.position = s.position
       LEFT JOIN (SELECT session, name, j FROM score_col WHERE kind = 2) f ON f.session = s.session AND f.name = s.reviewer`,
    `CREATE OR REPLACE TEMP TABLE cell AS
       SELECT session, candidate, mi, t, n, share, ord, y, rj AS j, rj, pj, sj, true AS owns FROM srec
       UNION ALL SELECT session, candidate, mi, t, n, share, ord, y, pj, rj, pj, sj, false FROM srec
       UNION ALL SELECT session, candidate, mi, t, n, share, ord, y, sj, rj, pj, sj, true FROM srec WHERE sj >= 0`,
    // Per answer and column it sets: K, and for a reviewer or self column the columns of the one record setting it.
    `CREATE OR REPLACE TEMP TABLE col_count AS
       SELECT session, candidate, j, any_value(mi) AS mi, any_value(t) AS t, any_value(n) AS n, count(*) AS k,
              max(rj) FILTER (WHERE owns) AS o_r, max(pj) FILTER (WHERE owns) AS o_p, max(sj) FILTER (WHERE owns) AS o_s
       FROM cell GROUP BY session, candidate, j`,
    // R: 1/n added k times, as an answer's mean row adds it once per record.
    `CREATE OR REPLACE TEMP TABLE col_answer AS
       SELECT c.*, s.r FROM col_count c
       JOIN (SELECT n, k, list_reduce(list_transform(range(k), i -> 1::DOUBLE / n), (a, b) -> a + b, 0::DOUBLE) AS r FROM (SELECT DISTINCT n, k FROM col_count)) s USING (n, k)`,
    // The same over all the session's columns (0 and -1 where the answer sets none), for the general path only.
    `CREATE OR REPLACE TEMP TABLE answer_dense AS
       SELECT a.session, a.candidate, a.mi, a.t, a.n, c.j, c.m, coalesce(x.r, 0) AS r, coalesce(x.k, 0) AS k,
              coalesce(x.o_r, -1) AS o_r, coalesce(x.o_p, -1) AS o_p, coalesce(x.o_s, -1) AS o_s
       FROM (SELECT * FROM answer WHERE session IN (SELECT session FROM answer GROUP BY session HAVING max(t) > ${UNROLLED_ANSWERS})) a
       JOIN score_col c USING (session) LEFT JOIN col_answer x ON x.session = a.session AND x.candidate = a.candidate AND x.j = c.j`,
    ...unrolledXtx(),
    generalXtx(),
    `CREATE OR REPLACE TEMP TABLE score_part AS
       WITH cols AS (SELECT c.session, values_of(list({'j': c.j, 'v': CASE c.kind WHEN 0 THEN 'reviewer:' || c.name WHEN 1 THEN 'position:' || c.position::BIGINT ELSE 'self:' || c.name END})) AS columns,
                            values_of(list({'j': c.j, 'v': coalesce(x.records, 0)})) AS records, values_of(list({'j': c.j, 'v': coalesce(x.xty, 0)})) AS xty
                     FROM score_col c LEFT JOIN (SELECT session, j, count(*)::INTEGER AS records, fsum(values_of(list({'mi': mi, 'ord': ord, 'v': y}))) AS xty
                                                 FROM cell WHERE n >= 2 GROUP BY session, j) x USING (session, j)
                     GROUP BY c.session),
            -- An answer's mean row: R of the columns it sets, 0 elsewhere.
            rows AS (SELECT session, candidate, list_transform(range(m), j -> coalesce(rs[list_position(js, j)], 0::DOUBLE)) AS mean_row
                     FROM (SELECT *, list_transform(l, e -> e.j) AS js, list_transform(l, e -> e.r) AS rs
                           FROM (SELECT x.session, x.candidate, any_value(c.m) AS m, list({'j': x.j, 'r': x.r}) AS l
                                 FROM col_answer x JOIN (SELECT session, any_value(m) AS m FROM score_col GROUP BY session) c USING (session)
                                 GROUP BY x.session, x.candidate))),
            answers AS (SELECT a.session, values_of(list({'mi': a.mi, 'v': {'author': a.candidate, 'lengthChars': a.len::BIGINT, 'count': a.n, 'meanScore': a.mean_score, 'meanRow': r.mean_row}})) AS answers
                        FROM answer a JOIN rows r USING (session, candidate) GROUP BY a.session),
            devs AS (SELECT session, fsum(values_of(list({'mi': mi, 'ord': ord, 'v': y * y}))) AS yty,
                            coalesce(values_of(list({'mi': mi, 'ord': ord, 'v': {'reviewer': reviewer, 'author': candidate, 'position': position::BIGINT, 'deviation': y}}) FILTER (WHERE reviewer <> candidate)), []) AS pairs
                     FROM srec WHERE n >= 2 GROUP BY session)
       SELECT cols.session, cols.columns, cols.records, xtx.xtx, cols.xty, coalesce(devs.yty, 0) AS yty, answers.answers, coalesce(devs.pairs, []) AS pairs
       FROM cols JOIN xtx USING (session) JOIN answers USING (session) LEFT JOIN devs USING (session)`,

    // ---- indicators ----
    // Per reviewer: its scores, ranks and where each was shown, in read order.
    `CREATE OR REPLACE TEMP TABLE rev AS
       SELECT *, CASE WHEN sn >= 2 THEN list_transform(scored, e -> {'v': e.score - ssum / sn, 'p': e.position}) END AS centred,
              CASE WHEN k >= 2 THEN list_transform(points, e -> {'v': e.v - fsum(list_transform(points, x -> x.v)) / k, 'p': e.p}) END AS rank_centred
       FROM (SELECT *, len(scored) AS sn, fsum(list_transform(scored, e -> e.score)) AS ssum, fsum(list_transform(scored, e -> e.score * e.score)) AS ssq,
                    len(ranked) AS k, list_min(list_transform(scored, e -> e.position)) AS pfirst, list_max(list_transform(scored, e -> e.position)) AS plast,
                    list_transform(ranked, e -> {'v': 1::DOUBLE - least(e.rank, len(ranked) - 1)::DOUBLE / (len(ranked) - 1)::DOUBLE, 'p': e.position}) AS points
             FROM (SELECT session, reviewer, min(ord) AS first_ord,
                          coalesce(list_sort(list({'ord': ord, 'score': score, 'position': position}) FILTER (WHERE score IS NOT NULL)), []) AS scored,
                          coalesce(list_sort(list({'ord': ord, 'rank': rank, 'position': position}) FILTER (WHERE rank IS NOT NULL)), []) AS ranked,
                          list_sort(list({'c': candidate, 'p': position})) AS shown
                   FROM kept GROUP BY session, reviewer))`,
    // Reviewers shown the same order share a group, numbered in the order of each order's first reviewer.
    `CREATE OR REPLACE TEMP TABLE rev_group AS
       SELECT r.session, r.reviewer, (dense_rank() OVER (PARTITION BY r.session ORDER BY g.first) - 1)::INTEGER AS grp
       FROM rev r JOIN (SELECT session, shown, min(first_ord) AS first FROM rev GROUP BY session, shown) g ON g.session = r.session AND g.shown = r.shown`,
    // The reviewers' centred values one by one: reviewers in order, each in read order (the JS's loop).
    `CREATE OR REPLACE TEMP TABLE centred AS
       SELECT session, first_ord, i, e.v AS v, e.p AS position, e.p = pfirst AS first, e.p = plast AS last
       FROM (SELECT session, first_ord, pfirst, plast, unnest(centred) AS e, generate_subscripts(centred, 1) AS i FROM rev WHERE sn >= 2)`,
    `CREATE OR REPLACE TEMP TABLE rank_centred AS
       SELECT session, first_ord, i, e.v AS v, e.p AS position
       FROM (SELECT session, first_ord, unnest(rank_centred) AS e, generate_subscripts(rank_centred, 1) AS i FROM rev WHERE k >= 2)`,
    `CREATE OR REPLACE TEMP TABLE pos AS (SELECT coalesce(s.session, r.session) AS session, coalesce(s.position, r.position) AS position, s.score, r.rank
                    FROM (SELECT session, position, fsum(values_of(list({'f': first_ord, 'i': i, 'v': v}))) / count(*) AS score FROM centred GROUP BY session, position) s
                    FULL JOIN (SELECT session, position, fsum(values_of(list({'f': first_ord, 'i': i, 'v': v}))) / count(*) AS rank FROM rank_centred GROUP BY session, position) r
                    USING (session, position))`,
    `CREATE OR REPLACE TEMP TABLE positions AS (SELECT session, values_of(list({'p': position, 'v': {'position': position::BIGINT, 'score': score, 'rank': rank}})) AS positions,
                                 coalesce(values_of(list({'p': position, 'v': score}) FILTER (WHERE score IS NOT NULL)), []) AS scores
                          FROM pos GROUP BY session)`,
    `CREATE OR REPLACE TEMP TABLE edges AS (SELECT session, fsum(values_of(list({'f': first_ord, 'i': i, 'v': v}) FILTER (WHERE first))) / count(*) FILTER (WHERE first) AS primacy,
                             fsum(values_of(list({'f': first_ord, 'i': i, 'v': v}) FILTER (WHERE last))) / count(*) FILTER (WHERE last) AS recency
                      FROM centred GROUP BY session)`,
    `CREATE OR REPLACE TEMP TABLE whole AS (SELECT session, len(scored) AS scored, CASE WHEN len(scored) > 0 THEN fsum(list_transform(scored, e -> e.score)) / len(scored) END AS mean, scored AS records
                      FROM (SELECT session, coalesce(list_sort(list({'ord': ord, 'score': score, 'position': position}) FILTER (WHERE score IS NOT NULL)), []) AS scored
                            FROM kept GROUP BY session))`,
    `CREATE OR REPLACE TEMP TABLE cand AS (SELECT session, coalesce(values_of(list({'f': first_ord, 'v': {'x': len, 'y': mean}}) FILTER (WHERE mean IS NOT NULL)), []) AS answers
                     FROM (SELECT session, candidate, min(ord) AS first_ord, arg_min(len, ord) AS len,
                                  CASE WHEN count(score) > 0 THEN fsum(values_of(list({'ord': ord, 'v': score}) FILTER (WHERE score IS NOT NULL))) / count(score) END AS mean
                           FROM kept GROUP BY session, candidate)
                     GROUP BY session)`,
    `CREATE OR REPLACE TEMP TABLE revs AS (SELECT r.session,
                            coalesce(values_of(list({'f': r.first_ord, 'v': {'reviewer': r.reviewer, 'scores': r.sn, 'sum': r.ssum, 'sumOfSquares': r.ssq}}) FILTER (WHERE r.sn > 0)), []) AS reviewers,
                            bool_or(r.sn >= 2) AS positioned, bool_or(r.k >= 2 AND r.sn < 2) AS rank_only,
                            coalesce(values_of(list({'f': r.first_ord, 'v': {'group': g.grp, 'values': list_transform(r.centred, e -> e.v), 'positions': list_transform(r.centred, e -> e.p::BIGINT)}}) FILTER (WHERE r.sn >= 2)), []) AS score_blocks,
                            coalesce(values_of(list({'f': r.first_ord, 'v': {'group': g.grp, 'values': list_transform(r.rank_centred, e -> e.v), 'positions': list_transform(r.rank_centred, e -> e.p::BIGINT)}}) FILTER (WHERE r.k >= 2 AND r.sn < 2)), []) AS rank_blocks
                     FROM rev r JOIN rev_group g USING (session, reviewer) GROUP BY r.session)`,
    // Pearson's r in steps (a macro's arguments are expanded where they are used: nested, they would be computed many times).
    `CREATE OR REPLACE TEMP TABLE ind_part AS
       SELECT * EXCLUDE (length_sums, anchor_sums), pearson_of(length_sums) AS length_r, pearson_of(anchor_sums) AS anchoring
       FROM (SELECT * EXCLUDE (length_pairs, anchor_pairs, lmx, lmy, amx, amy),
                    CASE WHEN length_answers >= 3 THEN pearson_sums(length_pairs, lmx, lmy) END AS length_sums,
                    CASE WHEN scored >= 3 THEN pearson_sums(anchor_pairs, amx, amy) END AS anchor_sums
             FROM (SELECT *, fsum(list_transform(length_pairs, e -> e.x)) / length_answers AS lmx, fsum(list_transform(length_pairs, e -> e.y)) / length_answers AS lmy,
                          fsum(list_transform(anchor_pairs, e -> e.x)) / scored AS amx, fsum(list_transform(anchor_pairs, e -> e.y)) / scored AS amy
                   FROM (SELECT w.session, w.scored, w.mean, cand.answers AS length_pairs, len(cand.answers) AS length_answers,
                                list_transform(w.records, e -> {'x': e.position, 'y': abs(e.score - w.mean)}) AS anchor_pairs,
                                CASE WHEN len(positions.scores) >= 2 THEN greatest(0::DOUBLE, fsum(list_transform(positions.scores, v -> v * v)) / len(positions.scores)
                                     - (fsum(positions.scores) / len(positions.scores)) * (fsum(positions.scores) / len(positions.scores))) END AS spread,
                                edges.primacy, edges.recency, coalesce(positions.positions, []) AS positions,
                                revs.reviewers, revs.positioned, revs.rank_only, revs.score_blocks, revs.rank_blocks
                         FROM whole w JOIN revs USING (session) JOIN cand USING (session) LEFT JOIN positions USING (session) LEFT JOIN edges USING (session))))`,

    // ---- one row per session, oldest first (ties by id), as one JSON text (DuckDB's conversion of nested lists to JS values is slow) ----
    `SELECT to_json({${summaryRowColumns.map((c) => `${c}: ${c}`).join(', ')}}) AS summary FROM (
     WITH info AS (SELECT session, min(ms) AS time_ms FROM rec GROUP BY session),
          sessions AS (SELECT session, count(*)::INTEGER AS records, list(DISTINCT coalesce(config, '(none)')) AS config_versions FROM kept GROUP BY session),
          members AS (SELECT session, list(DISTINCT m) AS members FROM (SELECT session, reviewer AS m FROM kept UNION ALL SELECT session, candidate FROM kept) GROUP BY session)
     SELECT s.session, info.time_ms, s.records, members.members, s.config_versions,
            coalesce(sp.columns, []) AS score_columns, coalesce(sp.records, []) AS score_records, coalesce(sp.xtx, []) AS score_xtx,
            coalesce(sp.xty, []) AS score_xty, coalesce(sp.yty, 0) AS score_yty, coalesce(sp.answers, []) AS score_answers, coalesce(sp.pairs, []) AS score_pairs,
            ip.scored AS scored_records, ip.mean AS mean_score, ip.length_r, ip.length_answers, ip.spread AS position_spread, ip.primacy, ip.recency,
            ip.anchoring, ip.positions, ip.reviewers, ip.positioned AS positioned_scores, ip.rank_only, ip.score_blocks, ip.rank_blocks
     FROM sessions s JOIN info USING (session) JOIN members USING (session) JOIN ind_part ip USING (session) LEFT JOIN score_part sp USING (session)
     ) ORDER BY time_ms, session`,
  ];
}
