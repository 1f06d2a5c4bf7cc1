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

/**
 * Answers in their authors' name order as JS's \`<\` orders names (by UTF-16 code units; DuckDB orders text by code
 * points, which differs past U+FFFF), the order in which the JS sums a session's answers.
 */
const authorOrder = `CREATE OR REPLACE TEMP TABLE author_order AS
  SELECT m, row_number() OVER (ORDER BY utf16_units(m)) AS mi FROM (SELECT DISTINCT candidate AS m FROM kept)`;

/** Sequential sums, Pearson's r as `pearsonR` computes it, the JS's "add 1, c times", and a name's UTF-16 code units. */
const macros = [
  `CREATE OR REPLACE TEMP MACRO fsum(l) AS list_reduce(l, (a, b) -> a + b, 0::DOUBLE)`,
  `CREATE OR REPLACE TEMP MACRO pearson_of(s) AS
     CASE WHEN s.sxx = 0 OR s.syy = 0 THEN NULL ELSE greatest(-1::DOUBLE, least(1::DOUBLE, s.sxy / sqrt(s.sxx * s.syy))) END`,
  `CREATE OR REPLACE TEMP MACRO pearson_sums(xs, ys, mx, my) AS
     {'sxx': fsum(list_transform(xs, x -> (x - mx) * (x - mx))), 'syy': fsum(list_transform(ys, y -> (y - my) * (y - my))),
      'sxy': fsum(list_transform(range(len(xs)), i -> (xs[i + 1] - mx) * (ys[i + 1] - my)))}`,
  `CREATE OR REPLACE TEMP MACRO pearson_r(xs, ys) AS pearson_of(pearson_sums(xs, ys, fsum(xs) / len(xs), fsum(ys) / len(ys)))`,
  `CREATE OR REPLACE TEMP MACRO plus_ones(v, c) AS
     CASE WHEN c = 0 THEN v WHEN c = 1 THEN v + 1 ELSE list_reduce(list_transform(range(c::BIGINT), t -> 1::DOUBLE), (a, b) -> a + b, v) END`,
  `CREATE OR REPLACE TEMP MACRO utf16_units(s) AS flatten(list_transform(string_split(s, ''), ch -> CASE WHEN unicode(ch) < 65536 THEN [unicode(ch)]
     ELSE [55296 + (unicode(ch) - 65536) // 1024, 56320 + (unicode(ch) - 65536) % 1024] END))`,
];

/** The statements computing the summaries from the table `kept` (`duckdbRecordStatements`); the last returns the rows. */
export function duckdbSummaryStatements(): string[] {
  return [
    ...macros,
    authorOrder,
    // ---- score: the score model's sums ----
    // Each answer's scored records in read order; its mean score is Σy·(1/n) as `AnswerMean` forms it.
    `CREATE OR REPLACE TEMP TABLE answer AS
       SELECT *, fsum(list_transform(recs, r -> r.score)) * share AS mean_score,
              list_transform(recs, r -> CASE WHEN r.reviewer = author THEN ['reviewer:' || r.reviewer, 'position:' || r.position::BIGINT, 'self:' || r.reviewer]
                                             ELSE ['reviewer:' || r.reviewer, 'position:' || r.position::BIGINT] END) AS names
       FROM (SELECT k.session, k.candidate AS author, any_value(o.mi) AS mi, count(*)::INTEGER AS n, 1::DOUBLE / count(*) AS share,
                    arg_min(k.len, k.ord) AS len, list({'reviewer': k.reviewer, 'position': k.position, 'score': k.score} ORDER BY k.ord) AS recs
             FROM kept k JOIN author_order o ON o.m = k.candidate WHERE k.score IS NOT NULL GROUP BY k.session, k.candidate)`,
    // The session's columns in the order its records first set them.
    `CREATE OR REPLACE TEMP TABLE score_cols AS
       SELECT session, list_transform(list_sort(list_transform(list_distinct(names), x -> {'at': list_position(names, x), 'name': x})), e -> e.name) AS cols
       FROM (SELECT session, flatten(flatten(list(names ORDER BY mi))) AS names FROM answer GROUP BY session)`,
    // Per answer: its records' columns (local indices) and deviations, and over the session's columns its counts
    // (K), mean row (R) and, for a reviewer or self column, the columns of the one record setting it (owner).
    `CREATE OR REPLACE TEMP TABLE answer_row AS
       SELECT session, author, mi, n, len, mean_score, m, rows, k_row, mean_row, owner,
              list_transform(list_filter(rows, r -> r.reviewer <> author), r -> {'reviewer': r.reviewer, 'author': author, 'position': r.position::BIGINT, 'deviation': r.y}) AS pairs
       FROM (SELECT *, list_transform(range(m), j -> len(list_filter(rows, r -> r.rj = j OR r.pj = j OR r.sj = j))) AS k_row,
                    list_transform(range(m), j -> fsum(list_transform(list_filter(rows, r -> r.rj = j OR r.pj = j OR r.sj = j), r -> share))) AS mean_row,
                    list_transform(range(m), j -> list_filter(rows, r -> r.rj = j OR r.sj = j)[1]) AS owner
             FROM (SELECT a.*, len(c.cols) AS m,
                          list_transform(a.recs, r -> {'reviewer': r.reviewer, 'position': r.position, 'y': r.score - a.mean_score,
                                                       'rj': list_position(c.cols, 'reviewer:' || r.reviewer) - 1,
                                                       'pj': list_position(c.cols, 'position:' || r.position::BIGINT) - 1,
                                                       'sj': CASE WHEN r.reviewer = a.author THEN list_position(c.cols, 'self:' || r.reviewer) - 1 ELSE -1 END}) AS rows
                   FROM answer a JOIN score_cols c USING (session)))`,
    // X̃'X̃ answer by answer (answers scored twice or more, in order): each cell less (n·x̄ₐ)·x̄_b, then plus 1 per
    // record setting both columns — on the diagonal its count, elsewhere 1 when the one record owning a reviewer or
    // self column sets the other (a reviewer or self column is set by one record of an answer, a position by several).
    `CREATE OR REPLACE TEMP TABLE score_part AS
       SELECT s.session, c.cols AS columns, s.answers, s.pairs,
              list_transform(range(s.m), j -> len(list_filter(s.rows, r -> r.rj = j OR r.pj = j OR r.sj = j))::INTEGER) AS records,
              list_transform(range(s.m), j -> fsum(list_transform(list_filter(s.rows, r -> r.rj = j OR r.pj = j OR r.sj = j), r -> r.y))) AS xty,
              fsum(list_transform(s.rows, r -> r.y * r.y)) AS yty,
              list_reduce(s.enc, (acc, e) -> list_transform(range(s.m * s.m), i -> plus_ones(
                  acc[i + 1] - (e[1] * e[2 + i // s.m]) * e[2 + i % s.m],
                  CASE WHEN i // s.m = i % s.m THEN e[2 + s.m + i // s.m]
                       WHEN e[2 + 2 * s.m + i // s.m] >= 0 THEN (e[2 + 2 * s.m + i // s.m] = i % s.m OR e[2 + 3 * s.m + i // s.m] = i % s.m OR e[2 + 4 * s.m + i // s.m] = i % s.m)::INTEGER
                       WHEN e[2 + 2 * s.m + i % s.m] >= 0 THEN (e[2 + 2 * s.m + i % s.m] = i // s.m OR e[2 + 3 * s.m + i % s.m] = i // s.m OR e[2 + 4 * s.m + i % s.m] = i // s.m)::INTEGER
                       ELSE 0 END)),
                list_transform(range(s.m * s.m), i -> 0::DOUBLE)) AS xtx
       FROM (SELECT session, any_value(m) AS m,
                    list({'author': author, 'lengthChars': len::BIGINT, 'count': n, 'meanScore': mean_score, 'meanRow': mean_row} ORDER BY mi) AS answers,
                    coalesce(flatten(list(pairs ORDER BY mi) FILTER (WHERE n >= 2)), []) AS pairs,
                    coalesce(flatten(list(rows ORDER BY mi) FILTER (WHERE n >= 2)), []) AS rows,
                    -- An answer as one list of numbers (list_reduce folds a list of its accumulator's type):
                    -- n, then over the columns R, K and the owner's reviewer, position and self columns (-1: none).
                    coalesce(list(list_concat([n::DOUBLE], mean_row, list_transform(k_row, v -> v::DOUBLE),
                                              list_transform(owner, o -> coalesce(o.rj, -1)::DOUBLE), list_transform(owner, o -> coalesce(o.pj, -1)::DOUBLE),
                                              list_transform(owner, o -> coalesce(o.sj, -1)::DOUBLE)) ORDER BY mi) FILTER (WHERE n >= 2), []) AS enc
             FROM answer_row GROUP BY session) s JOIN score_cols c USING (session)`,

    // ---- indicators ----
    // Per reviewer: its scores, ranks and where each was shown, in read order.
    `CREATE OR REPLACE TEMP TABLE rev AS
       SELECT *, CASE WHEN sn >= 2 THEN list_transform(scores, x -> x - ssum / sn) END AS centred,
              CASE WHEN k >= 2 THEN list_transform(points, t -> t - fsum(points) / k) END AS rank_centred
       FROM (SELECT *, len(scores) AS sn, fsum(scores) AS ssum, fsum(list_transform(scores, x -> x * x)) AS ssq, len(ranks) AS k,
                    list_min(score_positions) AS pfirst, list_max(score_positions) AS plast,
                    list_transform(ranks, q -> 1::DOUBLE - least(q, len(ranks) - 1)::DOUBLE / (len(ranks) - 1)::DOUBLE) AS points
             FROM (SELECT session, reviewer, min(ord) AS first_ord,
                          coalesce(list(score ORDER BY ord) FILTER (WHERE score IS NOT NULL), []) AS scores,
                          coalesce(list(position ORDER BY ord) FILTER (WHERE score IS NOT NULL), []) AS score_positions,
                          coalesce(list(rank ORDER BY ord) FILTER (WHERE rank IS NOT NULL), []) AS ranks,
                          coalesce(list(position ORDER BY ord) FILTER (WHERE rank IS NOT NULL), []) AS rank_positions,
                          list({'c': candidate, 'p': position} ORDER BY candidate) AS shown
                   FROM kept GROUP BY session, reviewer))`,
    // Reviewers shown the same order share a group, numbered in the order of each order's first reviewer.
    `CREATE OR REPLACE TEMP TABLE rev_group AS
       SELECT r.session, r.reviewer, (dense_rank() OVER (PARTITION BY r.session ORDER BY g.first) - 1)::INTEGER AS grp
       FROM rev r JOIN (SELECT session, shown, min(first_ord) AS first FROM rev GROUP BY session, shown) g ON g.session = r.session AND g.shown = r.shown`,
    // Per session: the reviewers' centred values one after another (reviewers in order, each in read order).
    `CREATE OR REPLACE TEMP TABLE rev_part AS
       SELECT *, list_sort(list_distinct(list_concat(list_transform(sv, e -> e.p), list_transform(rv, e -> e.p)))) AS shown_positions
       FROM (SELECT r.session,
                    coalesce(list({'reviewer': r.reviewer, 'scores': r.sn, 'sum': r.ssum, 'sumOfSquares': r.ssq} ORDER BY r.first_ord) FILTER (WHERE r.sn > 0), []) AS reviewers,
                    coalesce(bool_or(r.sn >= 2), false) AS positioned, coalesce(bool_or(r.k >= 2 AND r.sn < 2), false) AS rank_only,
                    coalesce(list({'group': g.grp, 'values': r.centred, 'positions': list_transform(r.score_positions, p -> p::BIGINT)} ORDER BY r.first_ord) FILTER (WHERE r.sn >= 2), []) AS score_blocks,
                    coalesce(list({'group': g.grp, 'values': r.rank_centred, 'positions': list_transform(r.rank_positions, p -> p::BIGINT)} ORDER BY r.first_ord) FILTER (WHERE r.k >= 2 AND r.sn < 2), []) AS rank_blocks,
                    coalesce(flatten(list(list_transform(range(r.sn), i -> {'v': r.centred[i + 1], 'p': r.score_positions[i + 1], 'first': r.score_positions[i + 1] = r.pfirst, 'last': r.score_positions[i + 1] = r.plast}) ORDER BY r.first_ord) FILTER (WHERE r.sn >= 2)), []) AS sv,
                    coalesce(flatten(list(list_transform(range(r.k), i -> {'v': r.rank_centred[i + 1], 'p': r.rank_positions[i + 1]}) ORDER BY r.first_ord) FILTER (WHERE r.k >= 2)), []) AS rv
             FROM rev r JOIN rev_group g USING (session, reviewer) GROUP BY r.session)`,
    `CREATE OR REPLACE TEMP TABLE ind_part AS
       WITH pos AS (SELECT session, list_transform(shown_positions, p -> {'position': p::BIGINT,
                            'score': CASE WHEN list_bool_or(list_transform(sv, e -> e.p = p)) THEN fsum(list_transform(list_filter(sv, e -> e.p = p), e -> e.v)) / len(list_filter(sv, e -> e.p = p)) END,
                            'rank': CASE WHEN list_bool_or(list_transform(rv, e -> e.p = p)) THEN fsum(list_transform(list_filter(rv, e -> e.p = p), e -> e.v)) / len(list_filter(rv, e -> e.p = p)) END}) AS positions,
                            CASE WHEN len(list_filter(sv, e -> e.first)) > 0 THEN fsum(list_transform(list_filter(sv, e -> e.first), e -> e.v)) / len(list_filter(sv, e -> e.first)) END AS primacy,
                            CASE WHEN len(list_filter(sv, e -> e.last)) > 0 THEN fsum(list_transform(list_filter(sv, e -> e.last), e -> e.v)) / len(list_filter(sv, e -> e.last)) END AS recency
                     FROM rev_part),
            spread AS (SELECT session, CASE WHEN len(s) >= 2 THEN greatest(0::DOUBLE, fsum(list_transform(s, v -> v * v)) / len(s) - (fsum(s) / len(s)) * (fsum(s) / len(s))) END AS spread
                       FROM (SELECT session, list_filter(list_transform(positions, p -> p.score), v -> v IS NOT NULL) AS s FROM pos)),
            whole AS (SELECT session, scores, score_positions, len(scores) AS scored, CASE WHEN len(scores) > 0 THEN fsum(scores) / len(scores) END AS mean
                      FROM (SELECT session, coalesce(list(score ORDER BY ord) FILTER (WHERE score IS NOT NULL), []) AS scores,
                                   coalesce(list(position ORDER BY ord) FILTER (WHERE score IS NOT NULL), []) AS score_positions
                            FROM kept GROUP BY session)),
            cand AS (SELECT session, coalesce(list({'len': len, 'mean': mean} ORDER BY first_ord) FILTER (WHERE mean IS NOT NULL), []) AS answers
                     FROM (SELECT session, candidate, min(ord) AS first_ord, arg_min(len, ord) AS len,
                                  CASE WHEN count(score) > 0 THEN fsum(coalesce(list(score ORDER BY ord) FILTER (WHERE score IS NOT NULL), [])) / count(score) END AS mean
                           FROM kept GROUP BY session, candidate)
                     GROUP BY session)
       SELECT w.session, w.scored, w.mean,
              CASE WHEN len(cand.answers) >= 3 THEN pearson_r(list_transform(cand.answers, a -> a.len), list_transform(cand.answers, a -> a.mean)) END AS length_r,
              len(cand.answers) AS length_answers,
              spread.spread, pos.primacy, pos.recency,
              CASE WHEN w.scored >= 3 THEN pearson_r(w.score_positions, list_transform(w.scores, x -> abs(x - w.mean))) END AS anchoring,
              pos.positions, p.reviewers, p.positioned, p.rank_only, p.score_blocks, p.rank_blocks
       FROM whole w JOIN rev_part p USING (session) JOIN pos USING (session) JOIN spread USING (session) JOIN cand USING (session)`,

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
