WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
scoped_citations AS (
  SELECT f.model_id AS "k_model", f.model_id, f.url AS entity, f.citation_category, f.executed_at, TRUE AS hit
  FROM citations f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE AND COALESCE(TRUE, FALSE)
),
cited AS MATERIALIZED (
  SELECT "k_model", entity, model_id, hit, count(*) AS n, min(executed_at) AS first_at, bool_or(citation_category = 'owned') AS owned
  FROM scoped_citations GROUP BY ALL
),
parts AS (SELECT "k_model", count(DISTINCT entity) AS n_all, count(DISTINCT entity) FILTER (WHERE owned) AS n_kept
FROM cited WHERE hit GROUP BY "k_model"),
ordinals AS (
  SELECT "x"."k_model" AS "k_model", row_number() OVER w AS ordinal, x.n_kept,
         CAST(sum(x.n_all) OVER w - x.n_all AS BIGINT) AS all_before, CAST(sum(x.n_kept) OVER w - x.n_kept AS BIGINT) AS kb
  FROM parts x
  LEFT JOIN "models" AS "d_model" ON "d_model".id = "x"."k_model"
  WINDOW w AS (ORDER BY "d_model"."name" NULLS LAST, "x"."k_model" NULLS LAST ROWS UNBOUNDED PRECEDING)
)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "cited") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (WITH page_partitions AS (
  SELECT * FROM ordinals WHERE kb + n_kept > $5 AND kb < $6
),
page_start AS (SELECT min(kb) AS k0, min(all_before) AS a0 FROM page_partitions),
den AS (SELECT "k_model", model_id, CAST(sum(n) AS BIGINT) AS total FROM cited GROUP BY ALL),
models_in AS (SELECT "k_model", count(*) AS models FROM den GROUP BY "k_model"),
num AS (
  SELECT "k_model", entity, model_id, n, first_at, owned
  FROM cited c SEMI JOIN "page_partitions" ON "c"."k_model" IS NOT DISTINCT FROM "page_partitions"."k_model" WHERE hit
),
scored AS (
  SELECT "k_model", entity, CAST(sum(n) AS BIGINT) AS count, list_sum(list_sort(list(n / total))) / any_value(models) AS citation_share,
         min(first_at) AS first_cited_at, bool_or(owned) AS owned
  FROM (
    SELECT "num".*, den.total, mi.models FROM num
    JOIN den ON "num"."k_model" IS NOT DISTINCT FROM "den"."k_model" AND den.model_id = num.model_id
    JOIN models_in mi ON "num"."k_model" IS NOT DISTINCT FROM "mi"."k_model"
  )
  GROUP BY ALL
)
SELECT "x".*, b.k0 + count(*) FILTER (WHERE "x".owned) OVER (w ROWS UNBOUNDED PRECEDING) AS unit, row_number() OVER w - (pg.all_before - b.a0) AS rank
FROM scored x
JOIN page_partitions pg ON "x"."k_model" IS NOT DISTINCT FROM "pg"."k_model"
CROSS JOIN page_start b

WINDOW w AS (ORDER BY pg.ordinal, "x".count DESC, "x".citation_share DESC, "x".entity)
QUALIFY "x".owned AND unit > $7 AND unit <= $8)
SELECT t.unit, 0 AS seq, "t"."k_model" AS "g_model_id", "d_model"."name" AS "g_model_name", "t".entity, "t"."rank", "t"."count", "t"."citation_share", "t"."first_cited_at"
FROM ranked_rows t
LEFT JOIN "models" AS "d_model" ON "d_model".id = "t"."k_model")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01",0,4,0,4]
