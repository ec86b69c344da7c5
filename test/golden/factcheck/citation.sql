WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_answers AS (
  SELECT f.model_id FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
scoped_occurrences AS (
  SELECT ct.url AS "k_citation", f.accurate
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  JOIN (SELECT DISTINCT execution_id, url FROM citations ct WHERE "ct".category_id = $6 AND "ct".day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE)) ct ON ct.execution_id = f.execution_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND TRUE
),
accuracy_scores AS (SELECT "k_citation", count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM "scoped_occurrences" GROUP BY "k_citation"),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM accuracy_scores x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $12 + row_number() OVER (ORDER BY "y".accurate + "y".inaccurate DESC, "y"."k_citation") AS unit, unit AS rank
FROM (
  SELECT x.* FROM accuracy_scores x
  
  ORDER BY "x".accurate + "x".inaccurate DESC, "x"."k_citation" LIMIT $13 OFFSET $14
) y
)
SELECT t.unit, 0 AS seq, "t"."k_citation" AS "g_citation_url", "d_citation".citation_category AS "g_citation_category", "t".accurate / NULLIF(("t".accurate + "t".inaccurate), 0) AS accuracy, "t".accurate, "t".inaccurate
FROM ranked_rows t
LEFT JOIN (SELECT url, min(citation_category) AS citation_category FROM citations WHERE category_id = $15 GROUP BY url) AS "d_citation" ON "d_citation".url = "t"."k_citation")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,3,0,"00000000-0000-4000-8000-00000000000b"]
