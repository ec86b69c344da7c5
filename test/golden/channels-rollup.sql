WITH platform_citations AS NOT MATERIALIZED (
  SELECT f.channel_id, f.channel_title, f.channel_handle, f.channel_url, f.video_id, coalesce(f.video_category, '') AS video_category,
         f.source_type, f.model_id, CAST(date_trunc('week', f.day) AS DATE) AS period, f.n
  FROM "rollup_platform_daily_citations" f
  WHERE f.category_id = $1 AND f.day BETWEEN CAST($2 AS DATE) AND CAST($3 AS DATE) AND f.source_type IN ($4, $5, $6, $7) AND COALESCE(f.model_id IN (SELECT id FROM "models" WHERE TRUE AND (id IN ($8, $9) OR "name" IN ($10, $11))), FALSE)
),
sel AS NOT MATERIALIZED (
  SELECT * FROM platform_citations f WHERE COALESCE((contains(lower(f.channel_title), lower($12)) OR contains(lower(f.channel_handle), lower($13))), FALSE) AND f.channel_id IS NOT NULL
),
leads AS (SELECT channel_id AS lead_key, min(channel_title) AS title, min(channel_handle) AS handle, min(channel_url) AS url, CAST(coalesce(sum(n), 0) AS BIGINT) AS n FROM sel GROUP BY lead_key),
model_totals AS (SELECT model_id, period, CAST(coalesce(sum(n), 0) AS BIGINT) AS total FROM platform_citations GROUP BY ALL)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM leads) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "model_totals") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_leads AS (
  SELECT $14 + row_number() OVER (ORDER BY n DESC, title, lead_key) AS unit, *
  FROM (SELECT * FROM leads ORDER BY n DESC, title, lead_key LIMIT $15 OFFSET $16)
),
cells AS (
  SELECT lead_key, cross_key, period, sum(n) AS n, count(video_id) AS videos FROM (
    SELECT channel_id AS lead_key, model_id AS cross_key, period, video_id, CAST(coalesce(sum(n), 0) AS BIGINT) AS n FROM sel WHERE channel_id IN (SELECT lead_key FROM page_leads) GROUP BY ALL
  ) GROUP BY ALL
),
totals AS (SELECT period, CAST(coalesce(sum(total), 0) AS BIGINT) AS total FROM model_totals GROUP BY period)
SELECT l.unit, row_number() OVER (PARTITION BY l.unit ORDER BY x.period, x.n DESC, mo.name, x.cross_key) AS seq, l.title AS "name", l.handle AS "handle", l.url AS "url", l.unit AS "rank", mo.name AS "model", x.period AS "date", x.n AS "count", x.videos AS "videos", x.n / t.total AS "citation_share"
FROM cells x
JOIN page_leads l ON l.lead_key = x.lead_key
JOIN totals t ON t.period = x.period
LEFT JOIN models mo ON mo.id = x.cross_key)
ORDER BY unit, seq