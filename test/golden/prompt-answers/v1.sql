WITH p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.tag_ids, pr.analysis_types, pr.prompt_type, pr.asset_id,
         (SELECT coalesce(list(t.name ORDER BY t.name, t.id), []) FROM tags t WHERE t.category_id = $1 AND list_contains(pr.tag_ids, t.id)) AS tag_names
  FROM prompts pr WHERE pr.category_id = $2
),
e AS (SELECT f.* FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.executed_at >= CAST($4 AS TIMESTAMPTZ) AND f.executed_at < CAST($5 AS TIMESTAMPTZ) AND COALESCE(len(list_filter(p.analysis_types, lambda flat_item: flat_item = $6)) > 0, FALSE)),
l_citations AS (SELECT execution_id, list(url ORDER BY position) AS v FROM citations WHERE category_id = $7 AND execution_id IN (SELECT id FROM e) GROUP BY execution_id),
l_mentions AS (
  SELECT m.execution_id, list(a.name ORDER BY m.position, a.name) AS v
  FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE m.category_id = $8 AND execution_id IN (SELECT id FROM e) GROUP BY m.execution_id
),
l_queries AS (SELECT execution_id, list(query ORDER BY position) AS v FROM fanouts WHERE category_id = $9 AND execution_id IN (SELECT id FROM e) GROUP BY execution_id),
l_themes AS (
  SELECT execution_id, list(DISTINCT name ORDER BY name) AS names,
         list(json_object('name', name, 'type', sentiment_type) ORDER BY name, sentiment_type) AS v
  FROM (SELECT DISTINCT s.execution_id, t.name, s.sentiment_type FROM sentiments s JOIN themes t ON t.id = s.theme_id WHERE s.category_id = $10 AND execution_id IN (SELECT id FROM e))
  GROUP BY execution_id
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY f.executed_at DESC, f.id) AS unit, 0 AS seq,
       json_object('analysis_types', p.analysis_types, 'asset', pa.name, 'asset_id', p.asset_id, 'citations', coalesce("l_citations"."v", []), 'created_at', strftime(timezone('UTC', f.executed_at), '%Y-%m-%dT%H:%M:%SZ'), 'mentions', coalesce("l_mentions"."v", []), 'model', mo.name, 'model_id', f.model_id, 'persona', pe.name, 'prompt_id', f.prompt_id, 'region', rg.name, 'run_id', CAST(f.id AS VARCHAR), 'search_queries', coalesce("l_queries"."v", []), 'search_triggered', f.search_triggered, 'sentiment_themes', coalesce("l_themes"."v", []), 'tags', p.tag_names, 'themes', coalesce("l_themes"."names", []), 'topic', tp.name, 'topic_id', p.topic_id)::VARCHAR AS row
FROM e f
JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN regions rg ON rg.id = f.region_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN assets pa ON pa.id = p.asset_id
LEFT JOIN "l_citations" ON "l_citations".execution_id = f.id
LEFT JOIN "l_mentions" ON "l_mentions".execution_id = f.id
LEFT JOIN "l_queries" ON "l_queries".execution_id = f.id
LEFT JOIN "l_themes" ON "l_themes".execution_id = f.id),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $11 AND unit <= $12)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-08T06:59:00.000Z","2026-04-20T07:30:00.000Z","sentiment","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b",1,3]
