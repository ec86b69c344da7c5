WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
platform_citations AS (
  SELECT f.channel_id, f.channel_title, f.channel_handle, f.channel_url, f.video_id, coalesce(f.video_category, '') AS video_category,
         f.source_type, f.model_id
  FROM citations f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND f.source_type IN ($5, $6, $7, $8) AND TRUE
),
sel AS (
  SELECT * FROM platform_citations f WHERE TRUE
),
leads AS (SELECT video_category AS lead_key, count(*) AS n FROM sel GROUP BY lead_key),
model_totals AS (SELECT model_id, count(*) AS total FROM platform_citations GROUP BY ALL)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM leads) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "model_totals") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_leads AS (
  SELECT $9 + row_number() OVER (ORDER BY n DESC, lead_key, lead_key) AS unit, *
  FROM (SELECT * FROM leads ORDER BY n DESC, lead_key, lead_key LIMIT $10 OFFSET $11)
),
cells AS (
  SELECT lead_key, sum(n) AS n, count(video_id) AS videos FROM (
    SELECT video_category AS lead_key, video_id, count(*) AS n FROM sel WHERE video_category IN (SELECT lead_key FROM page_leads) GROUP BY ALL
  ) GROUP BY ALL
),
totals AS (SELECT CAST(coalesce(sum(total), 0) AS BIGINT) AS total FROM model_totals)
SELECT l.unit, row_number() OVER (PARTITION BY l.unit ORDER BY x.n DESC) AS seq, l.lead_key AS "name", l.unit AS "rank", x.n AS "count", x.videos AS "videos", x.n / t.total AS "citation_share"
FROM cells x
JOIN page_leads l ON l.lead_key = x.lead_key
JOIN totals t ON TRUE)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","video","short","channel","playlist",0,10,0]
