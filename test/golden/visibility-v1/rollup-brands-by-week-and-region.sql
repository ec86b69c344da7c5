WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
answer_groups AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.region_id AS "k_region", CAST(sum(f.executions) AS BIGINT) AS executions
  FROM "rollup_visibility_region_topic_executions" f, (SELECT f.topic_id AS topic_id) p
  WHERE f.category_id = $3 AND f.day >= CAST($4 AS DATE) AND f.day < CAST($5 AS DATE) AND COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $6 AND "name" = $7), FALSE)
  GROUP BY "k_date", "k_region"
),
scoped_mentions AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.region_id AS "k_region", f.asset_id, f.mentions, f.position_sum
  FROM "rollup_visibility_region_topic_mentions" f, (SELECT f.topic_id AS topic_id) p
  WHERE f.category_id = $8 AND f.day >= CAST($9 AS DATE) AND f.day < CAST($10 AS DATE) AND COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $11 AND "name" = $12), FALSE)
),
group_mentions AS (SELECT "k_date", "k_region", CAST(sum(mentions) AS BIGINT) AS total_mentions FROM scoped_mentions GROUP BY ALL),
chosen_brands AS (SELECT id, name FROM assets b WHERE category_id = $13 AND TRUE),
brand_mentions AS (
  SELECT "k_date", "k_region", asset_id, CAST(sum(mentions) AS BIGINT) AS mentions, CAST(sum(mentions) AS BIGINT) AS mentioned, sum(position_sum) AS position_sum
  FROM scoped_mentions WHERE asset_id IN (SELECT id FROM chosen_brands) GROUP BY ALL
),
grouped AS (SELECT b.id AS "k0", "g"."k_date" AS "k1", "g"."k_region" AS "k2", coalesce(bm.mentioned, 0) / NULLIF(g.executions, 0) AS "m0", coalesce(coalesce(bm.mentions, 0) / NULLIF(coalesce(t.total_mentions, 0), 0), 0.0) AS "m1", coalesce(bm.position_sum / NULLIF(coalesce(bm.mentions, 0), 0), 0.0) AS "m2"
FROM answer_groups g CROSS JOIN chosen_brands b LEFT JOIN brand_mentions bm ON "bm"."k_date" IS NOT DISTINCT FROM "g"."k_date" AND "bm"."k_region" IS NOT DISTINCT FROM "g"."k_region" AND bm.asset_id = b.id
LEFT JOIN group_mentions t ON "t"."k_date" IS NOT DISTINCT FROM "g"."k_date" AND "t"."k_region" IS NOT DISTINCT FROM "g"."k_region"),
labeled AS (SELECT g.*, "n0"."name" AS "d0", strftime("g"."k1", '%Y-%m-%d') AS "d1", "n2"."name" AS "d2" FROM grouped g
LEFT JOIN "assets" "n0" ON "n0".id = "g"."k0"
LEFT JOIN "regions" "n2" ON "n2".id = "g"."k2"),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", CAST("d2" AS VARCHAR) AS "out_d2", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "k1" ASC NULLS LAST, "d2" ASC NULLS LAST, "k2" ASC NULLS LAST LIMIT $14 OFFSET $15) page_rows
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "k1" ASC NULLS LAST, "d2" ASC NULLS LAST, "k2" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-00000000000b","visibility","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-12-01","00000000-0000-4000-8000-00000000000b","Boots","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-12-01","00000000-0000-4000-8000-00000000000b","Boots","00000000-0000-4000-8000-00000000000b",8,0]
