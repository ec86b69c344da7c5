WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
target AS (SELECT id, name FROM assets WHERE category_id = $3 AND (name = $4 OR id = $5)),
scoped_assessments AS (
  SELECT f.asset_id AS "k_competitor", f.model_id, f.n AS w, f.positive AS w_positive, TRUE AS hit
  FROM "rollup_sentiment_daily_sentiments" f
  WHERE "f".category_id = $6 AND "f".day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND f.asset_id IN (SELECT id FROM assets WHERE category_id = $9) AND f.asset_id NOT IN (SELECT id FROM target) AND COALESCE(f.model_id IN (SELECT id FROM "models" WHERE TRUE AND (id IN ($10) OR "name" IN ($11))), FALSE)),
compared_assessments AS (
  SELECT f.asset_id AS "k_competitor", f.model_id, f.n AS w, f.positive AS w_positive, TRUE AS hit
  FROM "rollup_sentiment_daily_sentiments" f
  WHERE "f".category_id = $12 AND "f".day BETWEEN CAST($13 AS DATE) AND CAST($14 AS DATE) AND f.asset_id IN (SELECT id FROM assets WHERE category_id = $15) AND f.asset_id NOT IN (SELECT id FROM target) AND COALESCE(f.model_id IN (SELECT id FROM "models" WHERE TRUE AND (id IN ($16) OR "name" IN ($17))), FALSE)),
cur AS (
  SELECT c.*, 100 * "c".positive / "c".n AS positive_sentiment, 100 - 100 * "c".positive / "c".n AS negative_sentiment
  FROM (
    SELECT "k_competitor", CAST(sum(w) AS BIGINT) AS n, CAST(sum(w_positive) AS BIGINT) AS positive
    FROM "scoped_assessments" WHERE hit GROUP BY "k_competitor"
  ) c),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM cur x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT (SELECT name FROM target) AS asset, coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_assessments") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $18 + row_number() OVER (ORDER BY "y".n DESC, "d_competitor"."name" NULLS LAST, "y"."k_competitor" NULLS LAST) AS unit, unit AS rank
FROM (
  SELECT x.* FROM cur x
  LEFT JOIN "assets" AS "d_competitor" ON "d_competitor".id = "x"."k_competitor"
  ORDER BY "x".n DESC, "d_competitor"."name" NULLS LAST, "x"."k_competitor" NULLS LAST LIMIT $19 OFFSET $20
) y
LEFT JOIN "assets" AS "d_competitor" ON "d_competitor".id = "y"."k_competitor"),
prev AS (
  SELECT c.*, 100 * "c".positive / "c".n AS positive_sentiment, 100 - 100 * "c".positive / "c".n AS negative_sentiment
  FROM (
    SELECT "k_competitor", CAST(sum(w) AS BIGINT) AS n, CAST(sum(w_positive) AS BIGINT) AS positive
    FROM (SELECT x.* FROM "compared_assessments" x SEMI JOIN "ranked_rows" ON "x"."k_competitor" IS NOT DISTINCT FROM "ranked_rows"."k_competitor") WHERE hit GROUP BY "k_competitor"
  ) c)
SELECT t.unit, 0 AS seq, "t"."k_competitor" AS "g_competitor_id", "d_competitor"."name" AS "g_competitor_name", "t".rank, "t"."positive_sentiment" AS "positive_sentiment", "t"."negative_sentiment" AS "negative_sentiment", pr.n AS previous_n, "pr"."positive_sentiment" AS "previous_positive_sentiment", "pr"."negative_sentiment" AS "previous_negative_sentiment"
FROM ranked_rows t
LEFT JOIN "assets" AS "d_competitor" ON "d_competitor".id = "t"."k_competitor"
LEFT JOIN prev pr ON "pr"."k_competitor" IS NOT DISTINCT FROM "t"."k_competitor")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","Acme","Acme","00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31","00000000-0000-4000-8000-00000000000b","ChatGPT","ChatGPT","00000000-0000-4000-8000-00000000000b","2026-01-01","2026-02-19","00000000-0000-4000-8000-00000000000b","ChatGPT","ChatGPT",0,10,0]
