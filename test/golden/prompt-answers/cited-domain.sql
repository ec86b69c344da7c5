WITH p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.tag_ids, pr.analysis_types, pr.prompt_type, pr.asset_id,
         (SELECT coalesce(list(t.name ORDER BY t.name, t.id), []) FROM tags t WHERE t.category_id = $1 AND list_contains(pr.tag_ids, t.id)) AS tag_names
  FROM prompts pr WHERE pr.category_id = $2
),
e AS MATERIALIZED (SELECT f.* FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND (COALESCE(f.id IN (SELECT execution_id FROM citations WHERE category_id = $6 AND lower(hostname) IN (lower($7))), FALSE)) AND (COALESCE(list_has_any(p.analysis_types, [$8, $9]), FALSE))),
numbered AS (SELECT id, row_number() OVER (ORDER BY executed_at DESC, id) AS unit FROM e),
rows AS (SELECT o.unit, 0 AS seq,
       json_object('run_id', CAST(f.id AS VARCHAR), 'date', strftime(timezone('UTC', f.executed_at), '%Y-%m-%dT%H:%M:%SZ'), 'model', json_object('id', f.model_id, 'name', mo.name), 'persona', pe.name, 'tags', p.tag_names, 'mentions', coalesce((SELECT list(a.name ORDER BY m.position, a.name) FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE "m".category_id = f.category_id AND "m".day = f.day AND "m".execution_id = f.id), []), 'citations', coalesce((SELECT list(x.url ORDER BY x.position) FROM citations x WHERE "x".category_id = f.category_id AND "x".day = f.day AND "x".execution_id = f.id), []), 'search_queries', coalesce((SELECT list(q.query ORDER BY q.position) FROM fanouts q WHERE "q".category_id = f.category_id AND "q".day = f.day AND "q".execution_id = f.id), []), 'analysis_types', list_transform(p.analysis_types, t -> CASE WHEN t = 'accuracy' THEN 'factcheck' ELSE t END))::VARCHAR AS row
FROM numbered o
JOIN e f ON f.id = o.id
JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN regions rg ON rg.id = f.region_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN assets pa ON pa.id = p.asset_id),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $10 AND unit <= $11)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT count(*) FROM e),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","WWW.Acme.Example","sentiment","accuracy",0,2]
