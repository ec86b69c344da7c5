WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
scoped_fanouts AS (
  SELECT CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.prompt_id AS "k_prompt", f.query AS "k_query", f.query AS q, f.n AS w FROM "rollup_fanouts_daily_fanouts" f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND list_has_any(p.analysis_types, [$5]) AND COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $6 AND (id IN ($7) OR "name" IN ($8))), FALSE)
),
runs AS NOT MATERIALIZED (
  SELECT CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.prompt_id AS "k_prompt", f.runs AS n_runs, f.searched AS n_searched, f.model_ids FROM "rollup_fanouts_daily_runs" f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND list_has_any(p.analysis_types, [$12]) AND COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $13 AND (id IN ($14) OR "name" IN ($15))), FALSE)
),
parts AS (SELECT "k_date", count(*) AS n_all, count(*) AS n_kept FROM (SELECT DISTINCT "k_date", "k_prompt", "k_query", 1 FROM "scoped_fanouts" WHERE TRUE) GROUP BY "k_date"),
ordinals AS (
  SELECT "x"."k_date" AS "k_date", row_number() OVER w AS ordinal, x.n_kept,
         CAST(sum(x.n_all) OVER w - x.n_all AS BIGINT) AS all_before, CAST(sum(x.n_kept) OVER w - x.n_kept AS BIGINT) AS kb
  FROM parts x
  
  WINDOW w AS (ORDER BY "x"."k_date" ROWS UNBOUNDED PRECEDING)
)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT unnest(model_ids) AS model_id FROM runs) x JOIN models mo ON mo.id = x.model_id), []) AS models, r.runs, r.searched FROM (SELECT CAST(coalesce(sum(n_runs), 0) AS BIGINT) AS runs, CAST(coalesce(sum(n_searched), 0) AS BIGINT) AS searched FROM runs) r) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (WITH page_partitions AS (
  SELECT * FROM ordinals WHERE kb + n_kept > $16 AND kb < $17
),
page_start AS (SELECT min(kb) AS k0, min(all_before) AS a0 FROM page_partitions),
scored AS (
  SELECT "n"."k_date" AS "k_date", "n"."k_prompt" AS "k_prompt", "n"."k_query" AS "k_query", n.fanouts, n.fanouts / NULLIF(xe.executions, 0) AS fanouts_per_execution, n.fanouts / gf.group_fanouts AS share
  FROM (SELECT "k_date", "k_prompt", "k_query", CAST(sum(w) AS BIGINT) AS fanouts FROM (SELECT x.* FROM "scoped_fanouts" x SEMI JOIN "page_partitions" ON "x"."k_date" IS NOT DISTINCT FROM "page_partitions"."k_date") GROUP BY "k_date", "k_prompt", "k_query") n
  LEFT JOIN (SELECT "k_date", "k_prompt", CAST(sum(w) AS BIGINT) AS group_fanouts FROM (SELECT x.* FROM "scoped_fanouts" x SEMI JOIN "page_partitions" ON "x"."k_date" IS NOT DISTINCT FROM "page_partitions"."k_date") GROUP BY "k_date", "k_prompt") gf ON "n"."k_date" IS NOT DISTINCT FROM "gf"."k_date" AND "n"."k_prompt" IS NOT DISTINCT FROM "gf"."k_prompt"
  LEFT JOIN (SELECT "k_date", "k_prompt", CAST(sum(n_searched) AS BIGINT) AS executions FROM (SELECT x.* FROM "runs" x SEMI JOIN "page_partitions" ON "x"."k_date" IS NOT DISTINCT FROM "page_partitions"."k_date") WHERE n_searched > 0 GROUP BY "k_date", "k_prompt") xe ON "n"."k_date" IS NOT DISTINCT FROM "xe"."k_date" AND "n"."k_prompt" IS NOT DISTINCT FROM "xe"."k_prompt")
SELECT "x".*, b.k0 + row_number() OVER w AS unit, row_number() OVER w - (pg.all_before - b.a0) AS rank
FROM scored x
JOIN page_partitions pg ON "x"."k_date" IS NOT DISTINCT FROM "pg"."k_date"
CROSS JOIN page_start b
LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "x"."k_prompt"
WINDOW w AS (ORDER BY pg.ordinal, "x".fanouts DESC, "x"."k_date", "d_prompt".prompt NULLS LAST, "x"."k_prompt" NULLS LAST, "x"."k_query" NULLS LAST)
QUALIFY unit > $18 AND unit <= $19)
SELECT t.unit, 0 AS seq, "t"."k_date" AS "g_date_day", "d_prompt".prompt AS "g_prompt_text", "t"."k_prompt" AS "g_prompt_id", "t"."k_query" AS "g_query_v", "t".rank, "t"."fanouts", "t"."fanouts_per_execution", "t"."share"
FROM ranked_rows t
LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "t"."k_prompt")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31","visibility","00000000-0000-4000-8000-00000000000b","Boots","Boots","00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31","visibility","00000000-0000-4000-8000-00000000000b","Boots","Boots",0,10,0,10]
