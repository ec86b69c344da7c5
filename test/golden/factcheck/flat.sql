WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_answers AS (
  SELECT f.model_id FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
scoped_occurrences AS (
  SELECT f.accurate
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
accuracy_scores AS (SELECT count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM "scoped_occurrences" HAVING count(*) > 0),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM accuracy_scores x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $9 + row_number() OVER () AS unit, unit AS rank
FROM (
  SELECT x.* FROM accuracy_scores x
  
   LIMIT $10 OFFSET $11
) y
)
SELECT t.unit, 0 AS seq, "t".accurate / NULLIF(("t".accurate + "t".inaccurate), 0) AS accuracy, "t".accurate, "t".inaccurate
FROM ranked_rows t
)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,10,0]
