WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_answers AS (
  SELECT CAST(date_trunc('quarter', f.day) AS DATE) AS "k_date", f.id AS execution_id
  FROM "executions" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $3 AND f.executed_at >= CAST($4 AS TIMESTAMPTZ) AND f.executed_at < CAST($5 AS TIMESTAMPTZ) AND TRUE
),
answer_groups AS (SELECT "k_date", count(*) AS executions FROM scoped_answers GROUP BY "k_date"),
scoped_mentions AS (
  SELECT CAST(date_trunc('quarter', f.day) AS DATE) AS "k_date", f.execution_id, f.asset_id, f.position
  FROM "mentions" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.executed_at >= CAST($7 AS TIMESTAMPTZ) AND f.executed_at < CAST($8 AS TIMESTAMPTZ) AND TRUE
),
group_mentions AS (SELECT "k_date", count(*) AS total_mentions FROM scoped_mentions GROUP BY ALL),
chosen_brands AS (SELECT id, name FROM assets b WHERE category_id = $9 AND b.is_owned),
brand_mentions AS (
  SELECT "k_date", count(*) AS mentions, count(DISTINCT execution_id) AS mentioned, sum(position) AS position_sum
  FROM scoped_mentions WHERE asset_id IN (SELECT id FROM chosen_brands) GROUP BY ALL
),
grouped AS (SELECT "g"."k_date" AS "k0", coalesce(bm.mentioned, 0) / NULLIF(g.executions, 0) AS "m0", g.executions AS "m1"
FROM answer_groups g LEFT JOIN brand_mentions bm ON "bm"."k_date" IS NOT DISTINCT FROM "g"."k_date"
LEFT JOIN group_mentions t ON "t"."k_date" IS NOT DISTINCT FROM "g"."k_date"),
labeled AS (SELECT g.*, strftime("g"."k0", '%Y-%m-%d') AS "d0" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", CAST("d0" AS VARCHAR) AS "out_d0", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST LIMIT $10 OFFSET $11
-- params: ["00000000-0000-4000-8000-00000000000b","visibility","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z","00000000-0000-4000-8000-00000000000b",8,0]
