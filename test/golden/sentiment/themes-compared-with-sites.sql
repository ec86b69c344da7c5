WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
target AS (SELECT id, name FROM assets WHERE category_id = $3 AND (name = $4 OR id = $5)),
scoped_assessments AS (
  SELECT f.theme_id AS "k_theme", unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", f.execution_id, f.model_id, f.sentiment_type, TRUE AS hit
  FROM sentiments f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE "f".category_id = $6 AND "f".day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND f.asset_id IN (SELECT id FROM target) AND TRUE),
compared_assessments AS (
  SELECT f.theme_id AS "k_theme", unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", f.execution_id, f.model_id, f.sentiment_type, TRUE AS hit
  FROM sentiments f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE "f".category_id = $9 AND "f".day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND f.asset_id IN (SELECT id FROM target) AND TRUE),
cur AS (
  SELECT c.*, 100 * "c".positive / "c".n AS positive_sentiment, 100 - 100 * "c".positive / "c".n AS negative_sentiment,
         100 * "c".answers / d.answers AS occurrence
  FROM (
    SELECT "k_theme", "k_tag", count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive, count(DISTINCT execution_id) AS answers
    FROM "scoped_assessments" WHERE hit GROUP BY "k_theme", "k_tag"
  ) c
  JOIN (SELECT "k_tag", count(DISTINCT execution_id) AS answers FROM "scoped_assessments" GROUP BY "k_tag") d ON "c"."k_tag" IS NOT DISTINCT FROM "d"."k_tag"),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM cur x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT (SELECT name FROM target) AS asset, coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_assessments") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $12 + row_number() OVER (ORDER BY "y".n DESC, "d_theme"."name" NULLS LAST, "y"."k_theme" NULLS LAST, "d_tag"."name" NULLS LAST, "y"."k_tag" NULLS LAST) AS unit, unit AS rank
FROM (
  SELECT x.* FROM cur x
  LEFT JOIN "themes" AS "d_theme" ON "d_theme".id = "x"."k_theme"
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "x"."k_tag"
  ORDER BY "x".n DESC, "d_theme"."name" NULLS LAST, "x"."k_theme" NULLS LAST, "d_tag"."name" NULLS LAST, "x"."k_tag" NULLS LAST LIMIT $13 OFFSET $14
) y
LEFT JOIN "themes" AS "d_theme" ON "d_theme".id = "y"."k_theme"
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "y"."k_tag"),
prev AS (
  SELECT c.*, 100 * "c".positive / "c".n AS positive_sentiment, 100 - 100 * "c".positive / "c".n AS negative_sentiment,
         100 * "c".answers / d.answers AS occurrence
  FROM (
    SELECT "k_theme", "k_tag", count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive, count(DISTINCT execution_id) AS answers
    FROM (SELECT x.* FROM "compared_assessments" x SEMI JOIN "ranked_rows" ON "x"."k_tag" IS NOT DISTINCT FROM "ranked_rows"."k_tag") WHERE hit GROUP BY "k_theme", "k_tag"
  ) c
  JOIN (SELECT "k_tag", count(DISTINCT execution_id) AS answers FROM (SELECT x.* FROM "compared_assessments" x SEMI JOIN "ranked_rows" ON "x"."k_tag" IS NOT DISTINCT FROM "ranked_rows"."k_tag") GROUP BY "k_tag") d ON "c"."k_tag" IS NOT DISTINCT FROM "d"."k_tag"),
sites AS (
  SELECT "k_theme", "k_tag", list(url ORDER BY answers DESC, url) AS cited_websites
  FROM (
    SELECT *, row_number() OVER (PARTITION BY "k_theme", "k_tag" ORDER BY answers DESC, url) AS place
    FROM (
      SELECT "h"."k_theme" AS "k_theme", "h"."k_tag" AS "k_tag", ct.url, count(DISTINCT h.execution_id) AS answers
      FROM (SELECT DISTINCT "x"."k_theme" AS "k_theme", "x"."k_tag" AS "k_tag", x.execution_id FROM scoped_assessments x SEMI JOIN "ranked_rows" ON "x"."k_theme" IS NOT DISTINCT FROM "ranked_rows"."k_theme" AND "x"."k_tag" IS NOT DISTINCT FROM "ranked_rows"."k_tag" WHERE x.hit) h
      JOIN citations ct ON ct.execution_id = h.execution_id AND "ct".category_id = $15 AND "ct".day BETWEEN CAST($16 AS DATE) AND CAST($17 AS DATE)
      GROUP BY ALL
    )
  )
  WHERE place <= $18
  GROUP BY ALL
)
SELECT t.unit, 0 AS seq, "t"."k_theme" AS "g_theme_id", "d_theme"."name" AS "g_theme_name", "t"."k_tag" AS "g_tag_id", "d_tag"."name" AS "g_tag_name", "t".rank, "t"."positive_sentiment" AS "positive_sentiment", "t"."occurrence" AS "occurrence", pr.n AS previous_n, "pr"."positive_sentiment" AS "previous_positive_sentiment", "pr"."occurrence" AS "previous_occurrence", CAST(to_json(coalesce(w.cited_websites, [])) AS VARCHAR) AS cited_websites
FROM ranked_rows t
LEFT JOIN "themes" AS "d_theme" ON "d_theme".id = "t"."k_theme"
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "t"."k_tag"
LEFT JOIN prev pr ON "pr"."k_theme" IS NOT DISTINCT FROM "t"."k_theme" AND "pr"."k_tag" IS NOT DISTINCT FROM "t"."k_tag"
LEFT JOIN sites w ON "w"."k_theme" IS NOT DISTINCT FROM "t"."k_theme" AND "w"."k_tag" IS NOT DISTINCT FROM "t"."k_tag")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","Brandy","Brandy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-07-01","2026-10-31",0,3,0,"00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",10]
