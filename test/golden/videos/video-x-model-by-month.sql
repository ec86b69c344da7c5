WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
platform_citations AS (
  SELECT f.video_id, f.video_title, f.channel_title, f.channel_handle, f.url, coalesce(f.video_category, '') AS video_category,
         f.source_type, f.model_id, CAST(date_trunc('month', f.day) AS DATE) AS period
  FROM citations f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND f.source_type IN ($5) AND TRUE
),
sel AS (
  SELECT * FROM platform_citations f WHERE f.video_id IS NOT NULL AND NOT COALESCE((contains(lower(f.channel_title), lower($6)) OR contains(lower(f.channel_handle), lower($7))), FALSE)
),
leads AS (SELECT video_id AS lead_key, min(video_title) AS title, min(url) AS url, min(channel_title) AS channel, min(channel_handle) AS handle, min(video_category) AS video_category, count(*) AS n FROM sel GROUP BY lead_key),
model_totals AS (SELECT model_id, period, count(*) AS total FROM platform_citations GROUP BY ALL)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM leads) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "model_totals") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_leads AS (
  SELECT $8 + row_number() OVER (ORDER BY n DESC, title, lead_key) AS unit, *
  FROM (SELECT * FROM leads ORDER BY n DESC, title, lead_key LIMIT $9 OFFSET $10)
),
cells AS (
  SELECT video_id AS lead_key, model_id AS cross_key, period, count(*) AS n FROM sel WHERE video_id IN (SELECT lead_key FROM page_leads) GROUP BY ALL
),
totals AS (SELECT period, CAST(coalesce(sum(total), 0) AS BIGINT) AS total FROM model_totals GROUP BY period)
SELECT l.unit, row_number() OVER (PARTITION BY l.unit ORDER BY x.period, x.n DESC, mo.name, x.cross_key) AS seq, l."title" AS "name", l."lead_key" AS "video_id", l."url" AS "url", l."channel" AS "channel", l."handle" AS "handle", l."video_category" AS "video_category", l.unit AS "rank", mo.name AS "model", x.period AS "date", x.n AS "count", x.n / t.total AS "citation_share"
FROM cells x
JOIN page_leads l ON l.lead_key = x.lead_key
JOIN totals t ON t.period = x.period
LEFT JOIN models mo ON mo.id = x.cross_key)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","short","trail","trail",0,2,0]
