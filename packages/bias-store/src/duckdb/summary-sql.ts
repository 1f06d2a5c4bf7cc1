/**
 * The per-session summaries (`BiasSessionSummary` of @council/bias-audit, shape v1) as DuckDB SQL: the map step of
 * the cross-session report, run by DuckDB directly over JSONL stores (plain or gzip) or a Parquet export. The one
 * place this dialect's SQL lives. Each statement builds a temporary table; the last selects one row per session
 * as one JSON object whose keys are `summaryRowColumns`, in that order, each named after the summary's field it fills.
 *
 * Definitions follow packages/bias-audit/README.md ("Map/reduce: the per-session summary"):
 * - a record is kept once per (session, reviewer, reviewed member): the first read, as the JS reader keeps it;
 * - `score`: a scored record's design row sets `reviewer:<reviewer>`, `position:<position>` and, on the reviewer's
 *   own answer, `self:<reviewer>`; within each answer scored twice or more X̃'X̃ = Σᵢ xᵢxᵢ' − n·x̄x̄', X̃'ỹ = Σᵢ xᵢ(yᵢ − ȳ),
 *   ỹ'ỹ = Σᵢ (yᵢ − ȳ)² (all GROUP BYs over the indicator columns, no matrices built row by row);
 * - `indicators`: within-reviewer centred scores and rank points, per position, per reviewer, and the blocks of the
 *   permutation test in record order.
 *
 * Order within a session: the score part's columns are `reviewer:` (by name), then `position:` (by number), then
 * `self:` (by name), answers by author, pairs by author then record order — a canonical order, which the reduce
 * does not depend on (it matches columns by name). The indicator part's reviewers and blocks follow each reviewer's
 * first record, and a block's values its records, in read order (file, then line or row), as the JS map does: the
 * permutation test relabels blocks in that order.
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

/** Pearson r of (x, y) over each group of `source` (two passes, as `pearsonR`): NULL below 3 pairs or with no variance. */
function pearson(spec: { source: string; group: string; x: string; y: string }): string {
  const { source, group, x, y } = spec;
  return `
    SELECT ${group}, count(*)::INTEGER AS n,
           CASE WHEN count(*) >= 3 AND sum((x - mx) * (x - mx)) <> 0 AND sum((y - my) * (y - my)) <> 0
                THEN greatest(-1, least(1, sum((x - mx) * (y - my)) / sqrt(sum((x - mx) * (x - mx)) * sum((y - my) * (y - my))))) END AS r
    FROM (SELECT ${group}, ${x} AS x, ${y} AS y, avg(${x}) OVER w AS mx, avg(${y}) OVER w AS my FROM ${source} WINDOW w AS (PARTITION BY ${group}))
    GROUP BY ${group}`;
}

/** The statements computing the summaries from the table `kept` (`duckdbRecordStatements`); the last returns the rows. */
export function duckdbSummaryStatements(): string[] {
  return [
    // ---- score: the score model's sums ----
    `CREATE OR REPLACE TEMP TABLE answer AS
       SELECT session, candidate, count(*)::INTEGER AS n, avg(score) AS mean_score, arg_min(len, ord) AS len
       FROM kept WHERE score IS NOT NULL GROUP BY session, candidate`,
    `CREATE OR REPLACE TEMP TABLE cell AS
       WITH base AS (SELECT k.session, k.candidate, k.reviewer, k.position, k.ord, a.n, k.score - a.mean_score AS dev
                     FROM kept k JOIN answer a USING (session, candidate) WHERE k.score IS NOT NULL)
       SELECT session, candidate, ord, n, dev, 0 AS kind, reviewer AS label, 'reviewer:' || reviewer AS col FROM base
       UNION ALL SELECT session, candidate, ord, n, dev, 1, lpad(position::BIGINT::VARCHAR, 5, '0'), 'position:' || position::BIGINT FROM base
       UNION ALL SELECT session, candidate, ord, n, dev, 2, reviewer, 'self:' || reviewer FROM base WHERE reviewer = candidate`,
    `CREATE OR REPLACE TEMP TABLE scol AS
       SELECT session, col, (row_number() OVER (PARTITION BY session ORDER BY kind, label) - 1)::INTEGER AS j
       FROM (SELECT DISTINCT session, col, kind, label FROM cell)`,
    `CREATE OR REPLACE TEMP TABLE amean AS
       SELECT session, candidate, col, any_value(n) AS n, count(*) / any_value(n) AS mean FROM cell GROUP BY session, candidate, col`,
    // X̃'X̃ over answers scored twice or more: co-occurrences of two columns in a record, less n·x̄ₐx̄_b per answer.
    `CREATE OR REPLACE TEMP TABLE xtx AS
       WITH co AS (SELECT a.session, a.col AS ca, b.col AS cb, count(*) AS v FROM cell a JOIN cell b ON a.ord = b.ord AND a.session = b.session
                   WHERE a.n >= 2 GROUP BY ALL),
            mm AS (SELECT a.session, a.col AS ca, b.col AS cb, sum(a.n * a.mean * b.mean) AS v FROM amean a JOIN amean b
                   ON a.session = b.session AND a.candidate = b.candidate WHERE a.n >= 2 GROUP BY ALL)
       SELECT a.session, a.j AS ja, b.j AS jb, coalesce(co.v, 0) - coalesce(mm.v, 0) AS v
       FROM scol a JOIN scol b ON a.session = b.session
       LEFT JOIN co ON co.session = a.session AND co.ca = a.col AND co.cb = b.col
       LEFT JOIN mm ON mm.session = a.session AND mm.ca = a.col AND mm.cb = b.col`,
    `CREATE OR REPLACE TEMP TABLE score_part AS
       WITH colsum AS (SELECT session, col, count(*)::INTEGER AS records, sum(dev) AS xty FROM cell WHERE n >= 2 GROUP BY ALL),
            cols AS (SELECT s.session, list(s.col ORDER BY s.j) AS columns, list(coalesce(c.records, 0) ORDER BY s.j) AS records,
                            list(coalesce(c.xty, 0) ORDER BY s.j) AS xty
                     FROM scol s LEFT JOIN colsum c USING (session, col) GROUP BY s.session),
            sq AS (SELECT session, list(v ORDER BY ja, jb) AS xtx FROM xtx GROUP BY session),
            yy AS (SELECT session, sum(dev * dev) FILTER (WHERE n >= 2) AS yty FROM cell WHERE kind = 0 GROUP BY session),
            rows AS (SELECT a.session, a.candidate, list(coalesce(m.mean, 0) ORDER BY s.j) AS mean_row
                     FROM answer a JOIN scol s ON s.session = a.session LEFT JOIN amean m ON m.session = a.session AND m.candidate = a.candidate AND m.col = s.col
                     GROUP BY a.session, a.candidate),
            answers AS (SELECT a.session, list({'author': a.candidate, 'lengthChars': a.len::BIGINT, 'count': a.n, 'meanScore': a.mean_score, 'meanRow': r.mean_row}
                                              ORDER BY a.candidate) AS answers
                        FROM answer a JOIN rows r USING (session, candidate) GROUP BY a.session),
            pairs AS (SELECT session, list({'reviewer': reviewer, 'author': candidate, 'position': position::BIGINT, 'deviation': dev} ORDER BY candidate, ord) AS pairs
                      FROM (SELECT k.session, k.reviewer, k.candidate, k.position, k.ord, k.score - a.mean_score AS dev
                            FROM kept k JOIN answer a USING (session, candidate) WHERE k.score IS NOT NULL AND a.n >= 2 AND k.reviewer <> k.candidate)
                      GROUP BY session)
       SELECT cols.session, cols.columns, cols.records, sq.xtx, cols.xty, coalesce(yy.yty, 0) AS yty, answers.answers, coalesce(pairs.pairs, []) AS pairs
       FROM cols JOIN sq USING (session) JOIN yy USING (session) JOIN answers USING (session) LEFT JOIN pairs USING (session)`,

    // ---- indicators ----
    `CREATE OR REPLACE TEMP TABLE rev AS
       SELECT session, reviewer, min(ord) AS first_ord, count(score)::INTEGER AS sn, sum(score) AS ssum, sum(score * score) AS ssq,
              count(rank)::INTEGER AS k, min(position) FILTER (WHERE score IS NOT NULL) AS pfirst, max(position) FILTER (WHERE score IS NOT NULL) AS plast,
              list({'c': candidate, 'p': position} ORDER BY candidate) AS shown
       FROM kept GROUP BY session, reviewer`,
    // Reviewers shown the same order share a group, numbered in the order of each order's first reviewer.
    `CREATE OR REPLACE TEMP TABLE rev_group AS
       SELECT r.session, r.reviewer, (dense_rank() OVER (PARTITION BY r.session ORDER BY g.first) - 1)::INTEGER AS grp
       FROM rev r JOIN (SELECT session, shown, min(first_ord) AS first FROM rev GROUP BY session, shown) g ON g.session = r.session AND g.shown = r.shown`,
    `CREATE OR REPLACE TEMP TABLE centred AS
       SELECT k.session, k.reviewer, k.ord, k.position, k.score - r.ssum / r.sn AS v, k.position = r.pfirst AS first, k.position = r.plast AS last
       FROM kept k JOIN rev r USING (session, reviewer) WHERE k.score IS NOT NULL AND r.sn >= 2`,
    `CREATE OR REPLACE TEMP TABLE rank_centred AS
       SELECT session, reviewer, ord, position, rank_only, pt - sum(pt) OVER (PARTITION BY session, reviewer) / count(*) OVER (PARTITION BY session, reviewer) AS v
       FROM (SELECT k.session, k.reviewer, k.ord, k.position, r.sn < 2 AS rank_only, 1 - least(k.rank, r.k - 1)::DOUBLE / (r.k - 1) AS pt
             FROM kept k JOIN rev r USING (session, reviewer) WHERE k.rank IS NOT NULL AND r.k >= 2)`,
    `CREATE OR REPLACE TEMP TABLE ind_part AS
       WITH pos AS (SELECT coalesce(s.session, r.session) AS session, coalesce(s.position, r.position) AS position, s.score, r.rank
                    FROM (SELECT session, position, avg(v) AS score FROM centred GROUP BY ALL) s
                    FULL JOIN (SELECT session, position, avg(v) AS rank FROM rank_centred GROUP BY ALL) r USING (session, position)),
            positions AS (SELECT session, list({'position': position::BIGINT, 'score': score, 'rank': rank} ORDER BY position) AS positions,
                                 CASE WHEN count(score) >= 2 THEN greatest(0, avg(score * score) - avg(score) * avg(score)) END AS spread
                          FROM pos GROUP BY session),
            edges AS (SELECT session, avg(v) FILTER (WHERE first) AS primacy, avg(v) FILTER (WHERE last) AS recency FROM centred GROUP BY session),
            whole AS (SELECT session, count(score)::INTEGER AS scored, avg(score) AS mean FROM kept GROUP BY session),
            anchor AS (${pearson({ source: '(SELECT k.session, k.position, abs(k.score - w.mean) AS dev FROM kept k JOIN whole w USING (session) WHERE k.score IS NOT NULL)', group: 'session', x: 'position', y: 'dev' })}),
            cand AS (SELECT session, candidate, arg_min(len, ord) AS len, avg(score) AS mean FROM kept GROUP BY session, candidate),
            length AS (${pearson({ source: '(SELECT * FROM cand WHERE mean IS NOT NULL)', group: 'session', x: 'len', y: 'mean' })}),
            blocks AS (SELECT session, reviewer, list(v ORDER BY ord) AS vals, list(position::BIGINT ORDER BY ord) AS poss FROM centred GROUP BY ALL),
            rank_blocks AS (SELECT session, reviewer, list(v ORDER BY ord) AS vals, list(position::BIGINT ORDER BY ord) AS poss FROM rank_centred WHERE rank_only GROUP BY ALL),
            revs AS (SELECT r.session,
                            list({'reviewer': r.reviewer, 'scores': r.sn, 'sum': r.ssum, 'sumOfSquares': r.ssq} ORDER BY r.first_ord) FILTER (WHERE r.sn > 0) AS reviewers,
                            bool_or(r.sn >= 2) AS positioned, bool_or(r.k >= 2 AND r.sn < 2) AS rank_only,
                            list({'group': g.grp, 'values': b.vals, 'positions': b.poss} ORDER BY r.first_ord) FILTER (WHERE b.vals IS NOT NULL) AS score_blocks,
                            list({'group': g.grp, 'values': rb.vals, 'positions': rb.poss} ORDER BY r.first_ord) FILTER (WHERE rb.vals IS NOT NULL) AS rank_blocks
                     FROM rev r JOIN rev_group g USING (session, reviewer)
                     LEFT JOIN blocks b USING (session, reviewer) LEFT JOIN rank_blocks rb USING (session, reviewer)
                     GROUP BY r.session)
       SELECT w.session, w.scored, w.mean, length.r AS length_r, CASE WHEN length.r IS NOT NULL THEN length.n END AS length_answers,
              positions.spread, edges.primacy, edges.recency, anchor.r AS anchoring, coalesce(positions.positions, []) AS positions,
              coalesce(revs.reviewers, []) AS reviewers, revs.positioned, revs.rank_only,
              coalesce(revs.score_blocks, []) AS score_blocks, coalesce(revs.rank_blocks, []) AS rank_blocks
       FROM whole w JOIN revs USING (session) LEFT JOIN positions USING (session) LEFT JOIN edges USING (session)
       LEFT JOIN anchor USING (session) LEFT JOIN length USING (session)`,

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
