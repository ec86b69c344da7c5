WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_occurrences AS (
  SELECT cc.theme AS k, f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
scoped_answers AS (
  SELECT f.model_id
  FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
answers AS (SELECT count(*) AS answers FROM scoped_answers),
sections AS (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM scoped_occurrences GROUP BY k)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM sections) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_sections AS (
  SELECT $9 + row_number() OVER (ORDER BY name NULLS LAST, k NULLS LAST) AS unit, *
  FROM (
    SELECT s.*, d.id AS id, s.k AS name FROM sections s
    LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = $10 GROUP BY name) d ON d.name = s.k
    ORDER BY name NULLS LAST, k NULLS LAST LIMIT $11 OFFSET $12
  )
),
claims AS (SELECT "b".*, cc.claim, 100 * b.n / a.answers AS occurrence
  FROM (SELECT k, cluster_id, count(*) AS n FROM scoped_occurrences o SEMI JOIN page_sections ps ON ps.k IS NOT DISTINCT FROM o.k WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON TRUE
  JOIN claim_clusters cc ON cc.id = b.cluster_id),
section_claims AS (
  SELECT c.k AS k, count(*) AS total_claims, list({'cluster_id': c.cluster_id, 'claim': cc.claim, 'occurrence': c.occurrence, 'reasoning': cc.reasoning} ORDER BY c.occurrence DESC, c.claim, c.cluster_id) AS claims
  FROM claims c
  JOIN claim_clusters cc ON cc.id = c.cluster_id
  
  GROUP BY c.k
)
SELECT s.unit, 0 AS seq, s.id AS section_id, s.name AS section_name, s.accurate / NULLIF((s.accurate + s.inaccurate), 0) AS accuracy, s.accurate, s.inaccurate,
       coalesce(r.total_claims, 0) AS total_claims, CAST(to_json(coalesce(r.claims, [])) AS VARCHAR) AS claims
FROM page_sections s
LEFT JOIN section_claims r ON r.k IS NOT DISTINCT FROM s.k)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,"00000000-0000-4000-8000-00000000000b",25,0]
