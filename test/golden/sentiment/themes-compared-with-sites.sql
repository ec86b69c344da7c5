WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
target AS (SELECT id, name FROM assets WHERE category_id = $3 AND (name = $4 OR id = $5)),
s AS (
  SELECT f.theme_id AS "k_theme", unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", f.execution_id, f.model_id, f.sentiment_type, TRUE AS hit
  FROM sentiments f JOIN p ON p.id = f.prompt_id
  WHERE "f".category_id = $6 AND "f".day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND f.asset_id IN (SELECT id FROM target) AND TRUE),
cur AS (
  SELECT c.*, 100 * c.positive / c.n AS positive_sentiment, 100 - 100 * c.positive / c.n AS negative_sentiment,
         100 * c.answers / d.answers AS occurrence
  FROM (
    SELECT "k_theme", "k_tag", count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive, count(DISTINCT execution_id) AS answers
    FROM "s" WHERE hit GROUP BY "k_theme", "k_tag"
  ) c
  JOIN (SELECT "k_tag", count(DISTINCT execution_id) AS answers FROM "s" GROUP BY "k_tag") d ON "c"."k_tag" IS NOT DISTINCT FROM "d"."k_tag"),
ranked AS (
  SELECT x.*, row_number() OVER (ORDER BY x.n DESC, "d_theme"."name" NULLS LAST, "x"."k_theme" NULLS LAST, "d_tag"."name" NULLS LAST, "x"."k_tag" NULLS LAST) AS rank
  FROM cur x
  LEFT JOIN "themes" AS "d_theme" ON "d_theme".id = "x"."k_theme"
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "x"."k_tag"
),
s_prev AS (
  SELECT f.theme_id AS "k_theme", unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", f.execution_id, f.model_id, f.sentiment_type, TRUE AS hit
  FROM sentiments f JOIN p ON p.id = f.prompt_id
  WHERE "f".category_id = $9 AND "f".day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND f.asset_id IN (SELECT id FROM target) AND TRUE),
prev AS (
  SELECT c.*, 100 * c.positive / c.n AS positive_sentiment, 100 - 100 * c.positive / c.n AS negative_sentiment,
         100 * c.answers / d.answers AS occurrence
  FROM (
    SELECT "k_theme", "k_tag", count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive, count(DISTINCT execution_id) AS answers
    FROM "s_prev" WHERE hit GROUP BY "k_theme", "k_tag"
  ) c
  JOIN (SELECT "k_tag", count(DISTINCT execution_id) AS answers FROM "s_prev" GROUP BY "k_tag") d ON "c"."k_tag" IS NOT DISTINCT FROM "d"."k_tag"),
sites AS (
  SELECT "k_theme", "k_tag", list(url ORDER BY answers DESC, url) AS cited_websites
  FROM (
    SELECT *, row_number() OVER (PARTITION BY "k_theme", "k_tag" ORDER BY answers DESC, url) AS place
    FROM (
      SELECT "h"."k_theme", "h"."k_tag", ct.url, count(DISTINCT h.execution_id) AS answers
      FROM (SELECT DISTINCT "k_theme", "k_tag", execution_id FROM s WHERE hit) h
      JOIN citations ct ON ct.execution_id = h.execution_id AND "ct".category_id = $12 AND "ct".day BETWEEN CAST($13 AS DATE) AND CAST($14 AS DATE)
      GROUP BY ALL
    )
  )
  WHERE place <= $15
  GROUP BY ALL
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY r.rank) AS unit, 0 AS seq,
       json_object('theme', CASE WHEN "r"."k_theme" IS NULL THEN NULL ELSE json_object('id', "r"."k_theme", 'name', "d_theme"."name") END, 'tag', CASE WHEN "r"."k_tag" IS NULL THEN NULL ELSE json_object('id', "r"."k_tag", 'name', "d_tag"."name") END, 'rank', r.rank, 'positive_sentiment', "r"."positive_sentiment", 'occurrence', "r"."occurrence", 'previous', CASE WHEN pr.n IS NULL THEN NULL ELSE json_object('positive_sentiment', "pr"."positive_sentiment", 'occurrence', "pr"."occurrence") END, 'cited_websites', coalesce(w.cited_websites, []))::VARCHAR AS row
FROM ranked r
LEFT JOIN "themes" AS "d_theme" ON "d_theme".id = "r"."k_theme"
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "r"."k_tag"
LEFT JOIN prev pr ON "pr"."k_theme" IS NOT DISTINCT FROM "r"."k_theme" AND "pr"."k_tag" IS NOT DISTINCT FROM "r"."k_tag"
LEFT JOIN sites w ON "w"."k_theme" IS NOT DISTINCT FROM "r"."k_theme" AND "w"."k_tag" IS NOT DISTINCT FROM "r"."k_tag"),
info AS (SELECT json_object('asset', (SELECT name FROM target), 'models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "s" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $16 AND unit <= $17)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","Brandy","Brandy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-07-01","2026-10-31","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",10,0,3]
