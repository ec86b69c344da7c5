WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_answers AS (
  SELECT f.model_id FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $6 AND (id IN ($7) OR "name" IN ($8))), FALSE)
),
scoped_occurrences AS (
  SELECT cc.theme AS "k_theme", f.model_id AS "k_model", f.accurate
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $12 AND (id IN ($13) OR "name" IN ($14))), FALSE)
),
accuracy_scores AS (SELECT "k_theme", "k_model", count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM "scoped_occurrences" GROUP BY "k_theme", "k_model"),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM accuracy_scores x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $15 + row_number() OVER (ORDER BY "y"."k_theme" NULLS LAST, "d_model"."name" NULLS LAST, "y"."k_model" NULLS LAST) AS unit, unit AS rank
FROM (
  SELECT x.* FROM accuracy_scores x
  LEFT JOIN "models" AS "d_model" ON "d_model".id = "x"."k_model"
  ORDER BY "x"."k_theme" NULLS LAST, "d_model"."name" NULLS LAST, "x"."k_model" NULLS LAST LIMIT $16 OFFSET $17
) y
LEFT JOIN "models" AS "d_model" ON "d_model".id = "y"."k_model")
SELECT t.unit, 0 AS seq, "d_theme".id AS "g_theme_id", "t"."k_theme" AS "g_theme_name", "t"."k_model" AS "g_model_id", "d_model"."name" AS "g_model_name", "t".accurate / NULLIF(("t".accurate + "t".inaccurate), 0) AS accuracy, "t".accurate, "t".inaccurate
FROM ranked_rows t
LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = $18 GROUP BY name) AS "d_theme" ON "d_theme".name = "t"."k_theme"
LEFT JOIN "models" AS "d_model" ON "d_model".id = "t"."k_model")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Boots","Boots","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Boots","Boots",0,4,0,"00000000-0000-4000-8000-00000000000b"]
