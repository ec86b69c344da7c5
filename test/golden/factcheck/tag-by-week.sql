WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_answers AS (
  SELECT f.model_id FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
scoped_occurrences AS (
  SELECT unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.accurate
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
accuracy_scores AS (SELECT "k_tag", "k_date", count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM "scoped_occurrences" GROUP BY "k_tag", "k_date"),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM accuracy_scores x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $9 + row_number() OVER (ORDER BY "d_tag"."name" NULLS LAST, "y"."k_tag" NULLS LAST, "y"."k_date") AS unit, unit AS rank
FROM (
  SELECT x.* FROM accuracy_scores x
  LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "x"."k_tag"
  ORDER BY "d_tag"."name" NULLS LAST, "x"."k_tag" NULLS LAST, "x"."k_date" LIMIT $10 OFFSET $11
) y
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "y"."k_tag")
SELECT t.unit, 0 AS seq, "t"."k_tag" AS "g_tag_id", "d_tag"."name" AS "g_tag_name", "t"."k_date" AS "g_date_day", "t".accurate / NULLIF(("t".accurate + "t".inaccurate), 0) AS accuracy, "t".accurate, "t".inaccurate
FROM ranked_rows t
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "t"."k_tag")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01",0,4,0]
