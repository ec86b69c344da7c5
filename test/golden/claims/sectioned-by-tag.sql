WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
o AS (
  SELECT unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE p.tag_ids END) AS k, f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $6 AND (id IN ($7) OR "name" IN ($8))), FALSE)
),
e AS (
  SELECT unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE p.tag_ids END) AS k, f.id AS execution_id, f.model_id
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $12 AND (id IN ($13) OR "name" IN ($14))), FALSE)
),
answers AS (SELECT k, count(*) AS answers FROM e GROUP BY k),
answers_by_model AS (SELECT k, model_id, count(*) AS answers FROM e GROUP BY ALL),
claims AS (
  SELECT b.*, 100 * b.n / a.answers AS occurrence
  FROM (SELECT k, cluster_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON "a".k IS NOT DISTINCT FROM "b".k
),
claim_models AS (
  SELECT k, cluster_id, list(json_object('id', model_id, 'name', name, 'occurrence', occurrence) ORDER BY occurrence DESC, name, model_id) AS models
  FROM (
    SELECT b.*, mo.name, 100 * b.n / a.answers AS occurrence
    FROM (SELECT k, cluster_id, model_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) b
    JOIN answers_by_model a ON a.model_id = b.model_id AND "a".k IS NOT DISTINCT FROM "b".k
    JOIN models mo ON mo.id = b.model_id
  )
  GROUP BY ALL
),
claim_evidence_list AS (
  SELECT cluster_id, list(json_object('id', id, 'kb_path', kb_path, 'kb_snippet', kb_snippet,
                                      'source_updated_at', strftime(timezone('UTC', source_updated_at), '%Y-%m-%dT%H:%M:%SZ')) ORDER BY kb_path, id) AS evidence
  FROM claim_evidence WHERE cluster_id IN (SELECT cluster_id FROM claims) GROUP BY cluster_id
),
claim_rows AS (
  SELECT c.*, cc.claim, json_object('cluster_id', c.cluster_id, 'claim', cc.claim, 'occurrence', c.occurrence, 'theme', cc.theme, 'models', coalesce(cm.models, []), 'evidence', coalesce(ce.evidence, [])) AS claim_json
  FROM claims c
  JOIN claim_clusters cc ON cc.id = c.cluster_id
LEFT JOIN claim_models cm ON cm.cluster_id = c.cluster_id AND "cm".k IS NOT DISTINCT FROM "c".k
LEFT JOIN claim_evidence_list ce ON ce.cluster_id = c.cluster_id
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY d.name NULLS LAST, s.k NULLS LAST) AS unit, 0 AS seq,
       json_object('tag', CASE WHEN s.k IS NULL THEN NULL ELSE json_object('id', s.k, 'name', d.name) END,
                   'accuracy', s.accurate / (s.accurate + s.inaccurate), 'accurate', s.accurate, 'inaccurate', s.inaccurate,
                   'total_claims', coalesce(r.total_claims, 0), 'claims', coalesce(r.claims, []))::VARCHAR AS row
FROM (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o GROUP BY k) s
LEFT JOIN (
  SELECT k, count(*) AS total_claims, list(claim_json ORDER BY occurrence DESC, claim, cluster_id) AS claims FROM claim_rows GROUP BY k
) r ON r.k IS NOT DISTINCT FROM s.k
LEFT JOIN "tags" d ON d.id = s.k),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "e" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $15 AND unit <= $16)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off",0,25]
