WITH p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.tag_ids, pr.analysis_types, pr.prompt_type, pr.asset_id,
         (SELECT coalesce(list(t.name ORDER BY t.name, t.id), []) FROM tags t WHERE t.category_id = $1 AND list_contains(pr.tag_ids, t.id)) AS tag_names
  FROM prompts pr WHERE pr.category_id = $2
),
e AS (SELECT f.* FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND (COALESCE(f.id IN (SELECT execution_id FROM citations WHERE category_id = $6 AND lower(hostname) IN (lower($7))), FALSE)) AND (COALESCE(list_has_any(p.analysis_types, [$8, $9]), FALSE))),
l_mentions AS (
  SELECT m.execution_id, list(a.name ORDER BY m.position, a.name) AS v
  FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE m.category_id = $10 AND execution_id IN (SELECT id FROM e) GROUP BY m.execution_id
),
l_citations AS (SELECT execution_id, list(url ORDER BY position) AS v FROM citations WHERE category_id = $11 AND execution_id IN (SELECT id FROM e) GROUP BY execution_id),
l_queries AS (SELECT execution_id, list(query ORDER BY position) AS v FROM fanouts WHERE category_id = $12 AND execution_id IN (SELECT id FROM e) GROUP BY execution_id),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY f.executed_at DESC, f.id) AS unit, 0 AS seq,
       json_object('run_id', CAST(f.id AS VARCHAR), 'date', strftime(timezone('UTC', f.executed_at), '%Y-%m-%dT%H:%M:%SZ'), 'model', json_object('id', f.model_id, 'name', mo.name), 'persona', pe.name, 'tags', p.tag_names, 'mentions', coalesce("l_mentions"."v", []), 'citations', coalesce("l_citations"."v", []), 'search_queries', coalesce("l_queries"."v", []), 'analysis_types', list_transform(p.analysis_types, t -> CASE WHEN t = 'accuracy' THEN 'factcheck' ELSE t END))::VARCHAR AS row
FROM e f
JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN regions rg ON rg.id = f.region_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN assets pa ON pa.id = p.asset_id
LEFT JOIN "l_mentions" ON "l_mentions".execution_id = f.id
LEFT JOIN "l_citations" ON "l_citations".execution_id = f.id
LEFT JOIN "l_queries" ON "l_queries".execution_id = f.id),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $13 AND unit <= $14)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","WWW.Acme.Example","sentiment","accuracy","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b",0,2]
