WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
c AS (
  SELECT f.channel_id, f.channel_title, f.channel_handle, f.channel_url, f.video_id, coalesce(f.video_category, '') AS video_category,
         f.source_type, f.model_id
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND f.source_type IN ($5, $6, $7, $8) AND TRUE
),
totals AS (
  SELECT count(*) AS total FROM c
),
sel AS (
  SELECT * FROM c f WHERE TRUE AND f.channel_id IS NOT NULL
),
leads AS (
  SELECT *, row_number() OVER (ORDER BY n DESC, title, lead_key) AS rank
  FROM (
    SELECT channel_id AS lead_key, min(channel_title) AS title, min(channel_handle) AS handle, min(channel_url) AS url, count(*) AS n
    FROM sel GROUP BY lead_key
  )
),
cells AS (
  SELECT channel_id AS lead_key, count(*) AS n, count(DISTINCT video_id) AS videos
  FROM sel GROUP BY ALL
),
rows AS MATERIALIZED (SELECT l.rank AS unit, row_number() OVER (PARTITION BY l.rank ORDER BY x.n DESC) AS seq,
       json_object('name', l.title, 'handle', l.handle, 'url', l.url, 'rank', l.rank, 'count', x.n, 'videos', x.videos, 'citation_share', x.n / t.total)::VARCHAR AS row
FROM cells x
JOIN leads l ON l.lead_key = x.lead_key
JOIN totals t ON TRUE),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "c" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $9 AND unit <= $10)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","video","short","channel","playlist",0,3]
