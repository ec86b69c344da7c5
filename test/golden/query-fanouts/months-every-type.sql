WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
scoped_fanouts AS (
  SELECT CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.model_id AS "k_model", f.query AS q FROM fanouts f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE AND (COALESCE(TRUE, FALSE)) AND (COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $5 AND (id IN ($6) OR "name" IN ($7))), FALSE))
),
runs AS (
  SELECT CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.model_id AS "k_model", f.model_id, f.search_triggered FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $8 AND f.day BETWEEN CAST($9 AS DATE) AND CAST($10 AS DATE) AND TRUE AND (COALESCE(TRUE, FALSE)) AND (COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $11 AND (id IN ($12) OR "name" IN ($13))), FALSE))
),
parts AS (SELECT "k_date", count(*) AS n_all, count(*) AS n_kept FROM (SELECT DISTINCT "k_date", "k_model", 1 FROM "scoped_fanouts" WHERE TRUE) GROUP BY "k_date"),
ordinals AS (
  SELECT "x"."k_date" AS "k_date", row_number() OVER w AS ordinal, x.n_kept,
         CAST(sum(x.n_all) OVER w - x.n_all AS BIGINT) AS all_before, CAST(sum(x.n_kept) OVER w - x.n_kept AS BIGINT) AS kb
  FROM parts x
  
  WINDOW w AS (ORDER BY "x"."k_date" ROWS UNBOUNDED PRECEDING)
)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "runs") x JOIN models mo ON mo.id = x.model_id), []) AS models, r.runs, r.searched FROM (SELECT count(*) AS runs, count(*) FILTER (WHERE search_triggered) AS searched FROM runs) r) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (WITH page_partitions AS (
  SELECT * FROM ordinals WHERE kb + n_kept > $14 AND kb < $15
),
page_start AS (SELECT min(kb) AS k0, min(all_before) AS a0 FROM page_partitions),
scored AS (
  SELECT "n"."k_date" AS "k_date", "n"."k_model" AS "k_model", n.fanouts, n.variations, n.fanouts / NULLIF(xe.executions, 0) AS fanouts_per_execution
  FROM (SELECT "k_date", "k_model", CAST(sum(qf) AS BIGINT) AS fanouts, count(q) AS variations FROM (SELECT "k_date", "k_model", q, count(*) AS qf FROM (SELECT x.* FROM "scoped_fanouts" x SEMI JOIN "page_partitions" ON "x"."k_date" IS NOT DISTINCT FROM "page_partitions"."k_date") GROUP BY "k_date", "k_model", q) GROUP BY "k_date", "k_model") n
  LEFT JOIN (SELECT "k_date", "k_model", count(*) AS executions FROM (SELECT x.* FROM "runs" x SEMI JOIN "page_partitions" ON "x"."k_date" IS NOT DISTINCT FROM "page_partitions"."k_date") WHERE search_triggered GROUP BY "k_date", "k_model") xe ON "n"."k_date" IS NOT DISTINCT FROM "xe"."k_date" AND "n"."k_model" IS NOT DISTINCT FROM "xe"."k_model")
SELECT "x".*, b.k0 + row_number() OVER w AS unit, row_number() OVER w - (pg.all_before - b.a0) AS rank
FROM scored x
JOIN page_partitions pg ON "x"."k_date" IS NOT DISTINCT FROM "pg"."k_date"
CROSS JOIN page_start b
LEFT JOIN "models" AS "d_model" ON "d_model".id = "x"."k_model"
WINDOW w AS (ORDER BY pg.ordinal, "x".fanouts DESC, "x"."k_date", "d_model"."name" NULLS LAST, "x"."k_model" NULLS LAST)
QUALIFY unit > $16 AND unit <= $17)
SELECT t.unit, 0 AS seq, "t"."k_date" AS "g_date_day", "t"."k_model" AS "g_model_id", "d_model"."name" AS "g_model_name", "t".rank, "t"."fanouts", "t"."fanouts_per_execution", "t"."variations"
FROM ranked_rows t
LEFT JOIN "models" AS "d_model" ON "d_model".id = "t"."k_model")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off",0,4,0,4]
