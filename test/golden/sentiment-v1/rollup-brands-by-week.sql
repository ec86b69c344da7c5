WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_assessments AS (
  SELECT f.asset_id AS "k_asset_name", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.n AS w, f.positive AS w_positive, f.negative AS w_negative
  FROM "rollup_sentiment_daily_sentiments" f
  WHERE f.category_id = $3 AND f.day >= CAST($4 AS DATE) AND f.day < CAST($5 AS DATE) AND TRUE
),
grouped AS (SELECT "scoped_assessments"."k_asset_name" AS "k0", "scoped_assessments"."k_date" AS "k1", CAST(sum(w_positive) AS BIGINT) AS "m0", CAST(sum(w_negative) AS BIGINT) AS "m1", CAST(sum(w) AS BIGINT) AS "m2" FROM "scoped_assessments" GROUP BY "k_asset_name", "k_date"),
labeled AS (SELECT g.*, "n0"."name" AS "d0", strftime("g"."k1", '%Y-%m-%d') AS "d1" FROM grouped g
LEFT JOIN "assets" "n0" ON "n0".id = "g"."k0"),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $6 OFFSET $7) page_rows
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "k1" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-12-01",8,0]
