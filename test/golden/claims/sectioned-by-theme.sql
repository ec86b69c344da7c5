WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
o AS (
  SELECT cc.theme AS k, f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
e AS (
  SELECT f.id AS execution_id, f.model_id
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
answers AS (SELECT count(*) AS answers FROM e),
answers_by_model AS (SELECT model_id, count(*) AS answers FROM e GROUP BY ALL),
claims AS (
  SELECT b.*, 100 * b.n / a.answers AS occurrence
  FROM (SELECT k, cluster_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON TRUE
),
claim_rows AS (
  SELECT c.*, cc.claim, json_object('cluster_id', c.cluster_id, 'claim', cc.claim, 'occurrence', c.occurrence, 'reasoning', cc.reasoning) AS claim_json
  FROM claims c
  JOIN claim_clusters cc ON cc.id = c.cluster_id
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY s.k NULLS LAST, s.k NULLS LAST) AS unit, 0 AS seq,
       json_object('theme', CASE WHEN s.k IS NULL THEN NULL ELSE json_object('id', d.id, 'name', s.k) END,
                   'accuracy', s.accurate / (s.accurate + s.inaccurate), 'accurate', s.accurate, 'inaccurate', s.inaccurate,
                   'total_claims', coalesce(r.total_claims, 0), 'claims', coalesce(r.claims, []))::VARCHAR AS row
FROM (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o GROUP BY k) s
LEFT JOIN (
  SELECT k, count(*) AS total_claims, list(claim_json ORDER BY occurrence DESC, claim, cluster_id) AS claims FROM claim_rows GROUP BY k
) r ON r.k IS NOT DISTINCT FROM s.k
LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = $9 GROUP BY name) d ON d.name = s.k),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "e" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $10 AND unit <= $11)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b",0,25]
