WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
c AS (
  SELECT f.video_id, f.video_title, f.channel_title, f.channel_handle, f.url, coalesce(f.video_category, '') AS video_category,
         f.source_type, f.model_id, CAST(date_trunc('month', f.day) AS DATE) AS period
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND f.source_type IN ($5) AND TRUE
),
totals AS (
  SELECT period, count(*) AS total FROM c GROUP BY period
),
sel AS (
  SELECT * FROM c f WHERE f.video_id IS NOT NULL AND NOT COALESCE((contains(lower(f.channel_title), lower($6)) OR contains(lower(f.channel_handle), lower($7))), FALSE)
),
leads AS (
  SELECT *, row_number() OVER (ORDER BY n DESC, title, video_id) AS rank
  FROM (
    SELECT video_id, min(video_title) AS title, min(url) AS url, min(channel_title) AS channel, min(channel_handle) AS handle,
           min(video_category) AS video_category, count(*) AS n
    FROM sel GROUP BY video_id
  )
),
cells AS (
  SELECT video_id, model_id AS cross_key, period, count(*) AS n FROM sel GROUP BY ALL
),
rows AS MATERIALIZED (SELECT l.rank AS unit, row_number() OVER (PARTITION BY l.rank ORDER BY x.period, x.n DESC, mo.name, x.cross_key) AS seq,
       json_object('name', l.title, 'video_id', l.video_id, 'url', l.url, 'channel', l.channel, 'handle', l.handle, 'video_category', l.video_category, 'rank', l.rank, 'model', mo.name, 'date', strftime(x.period, '%Y-%m-%d'), 'count', x.n, 'citation_share', x.n / t.total)::VARCHAR AS row
FROM cells x
JOIN leads l ON l.video_id = x.video_id
JOIN totals t ON t.period = x.period
LEFT JOIN models mo ON mo.id = x.cross_key),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "c" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $8 AND unit <= $9)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","short","trail","trail",0,2]
