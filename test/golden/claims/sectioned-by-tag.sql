WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_occurrences AS (
  SELECT unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE p.tag_ids END) AS k, f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $6 AND (id IN ($7) OR "name" IN ($8))), FALSE)
),
scoped_answers AS (
  SELECT unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE p.tag_ids END) AS k, f.model_id
  FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $12 AND (id IN ($13) OR "name" IN ($14))), FALSE)
),
answers AS (SELECT k, count(*) AS answers FROM scoped_answers GROUP BY k),
sections AS (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM scoped_occurrences GROUP BY k)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM sections) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_sections AS (
  SELECT $15 + row_number() OVER (ORDER BY name NULLS LAST, k NULLS LAST) AS unit, *
  FROM (
    SELECT s.*, s.k AS id, d.name AS name FROM sections s
    LEFT JOIN "tags" d ON d.id = s.k
    ORDER BY name NULLS LAST, k NULLS LAST LIMIT $16 OFFSET $17
  )
),
claims AS (SELECT "b".*, cc.claim, 100 * b.n / a.answers AS occurrence
  FROM (SELECT k, cluster_id, count(*) AS n FROM scoped_occurrences o SEMI JOIN page_sections ps ON ps.k IS NOT DISTINCT FROM o.k WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON a.k IS NOT DISTINCT FROM b.k
  JOIN claim_clusters cc ON cc.id = b.cluster_id),
answers_by_model AS (SELECT k, model_id, count(*) AS answers FROM scoped_answers GROUP BY ALL),
claim_models AS (
  SELECT k, cluster_id, list({'id': model_id, 'name': name, 'occurrence': occurrence} ORDER BY occurrence DESC, name, model_id) AS models
  FROM (
    SELECT "b".*, mo.name, 100 * b.n / a.answers AS occurrence
    FROM (SELECT k, cluster_id, model_id, count(*) AS n FROM scoped_occurrences o SEMI JOIN claims c ON c.cluster_id = o.cluster_id AND c.k IS NOT DISTINCT FROM o.k WHERE NOT accurate GROUP BY ALL) b
    JOIN answers_by_model a ON a.model_id = b.model_id AND "a".k IS NOT DISTINCT FROM "b".k
    JOIN models mo ON mo.id = b.model_id
  )
  GROUP BY ALL
),
claim_evidence_list AS (
  SELECT cluster_id, list({'id': id, 'kb_path': kb_path, 'kb_snippet': kb_snippet, 'source_updated_at': strftime(source_updated_at, '%Y-%m-%dT%H:%M:%SZ')} ORDER BY kb_path, id) AS evidence
  FROM claim_evidence WHERE cluster_id IN (SELECT cluster_id FROM claims) GROUP BY cluster_id
),
section_claims AS (
  SELECT c.k AS k, count(*) AS total_claims, list({'cluster_id': c.cluster_id, 'claim': cc.claim, 'occurrence': c.occurrence, 'theme': cc.theme, 'models': coalesce(cm.models, []), 'evidence': coalesce(ce.evidence, [])} ORDER BY c.occurrence DESC, c.claim, c.cluster_id) AS claims
  FROM claims c
  JOIN claim_clusters cc ON cc.id = c.cluster_id
  LEFT JOIN claim_models cm ON cm.cluster_id = c.cluster_id AND cm.k IS NOT DISTINCT FROM c.k
LEFT JOIN claim_evidence_list ce ON ce.cluster_id = c.cluster_id
  GROUP BY c.k
)
SELECT s.unit, 0 AS seq, s.id AS section_id, s.name AS section_name, s.accurate / NULLIF((s.accurate + s.inaccurate), 0) AS accuracy, s.accurate, s.inaccurate,
       coalesce(r.total_claims, 0) AS total_claims, CAST(to_json(coalesce(r.claims, [])) AS VARCHAR) AS claims
FROM page_sections s
LEFT JOIN section_claims r ON r.k IS NOT DISTINCT FROM s.k)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off",0,25,0]
