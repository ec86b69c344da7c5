WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
c AS (
  SELECT f.channel_id, f.channel_title, f.channel_handle, f.channel_url, f.video_id, coalesce(f.video_category, '') AS video_category,
         f.source_type, f.model_id
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND f.source_type IN ($5, $6, $7, $8) AND COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $9 AND (id IN ($10) OR "name" IN ($11))), FALSE)
),
totals AS (
  SELECT count(*) AS total FROM c
),
sel AS (
  SELECT * FROM c f WHERE (NOT (COALESCE((contains(lower(f.channel_title), lower($12)) OR contains(lower(f.channel_handle), lower($13))), FALSE))) AND (COALESCE(f.channel_handle IN ($14, $15, $16), FALSE)) AND f.channel_id IS NOT NULL
),
leads AS (
  SELECT *, row_number() OVER (ORDER BY n DESC, title, lead_key) AS rank
  FROM (
    SELECT channel_id AS lead_key, min(channel_title) AS title, min(channel_handle) AS handle, min(channel_url) AS url, count(*) AS n
    FROM sel GROUP BY lead_key
  )
),
cells AS (
  SELECT channel_id AS lead_key, source_type AS cross_key, count(*) AS n, count(DISTINCT video_id) AS videos
  FROM sel GROUP BY ALL
),
rows AS MATERIALIZED (SELECT l.rank AS unit, row_number() OVER (PARTITION BY l.rank ORDER BY x.n DESC, x.cross_key) AS seq,
       json_object('name', l.title, 'handle', l.handle, 'url', l.url, 'rank', l.rank, 'source_type', x.cross_key, 'count', x.n, 'videos', x.videos, 'citation_share', x.n / t.total)::VARCHAR AS row
FROM cells x
JOIN leads l ON l.lead_key = x.lead_key
JOIN totals t ON TRUE),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "c" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $17 AND unit <= $18)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","video","short","channel","playlist","00000000-0000-4000-8000-00000000000b","Boots","Boots","ZED","ZED","@trailtalk","@gearlab","@zed_",0,2]
