WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_answers AS (
  SELECT f.model_id AS "k_model", f.id AS execution_id
  FROM "executions" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $3 AND f.executed_at >= CAST($4 AS TIMESTAMPTZ) AND f.executed_at < CAST($5 AS TIMESTAMPTZ) AND (COALESCE(list_has_any(p.tag_ids, (SELECT list(id) FROM (SELECT id FROM "tags" WHERE category_id = $6 AND "name" IN ($7, $8)))), FALSE)) AND (NOT COALESCE(f.persona_id = $9, FALSE))
),
answer_groups AS (SELECT "k_model", count(*) AS executions FROM scoped_answers GROUP BY "k_model"),
scoped_mentions AS (
  SELECT f.model_id AS "k_model", f.execution_id, f.asset_id, f.position
  FROM "mentions" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $10 AND f.executed_at >= CAST($11 AS TIMESTAMPTZ) AND f.executed_at < CAST($12 AS TIMESTAMPTZ) AND (COALESCE(list_has_any(p.tag_ids, (SELECT list(id) FROM (SELECT id FROM "tags" WHERE category_id = $13 AND "name" IN ($14, $15)))), FALSE)) AND (NOT COALESCE(f.persona_id = $16, FALSE))
),
group_mentions AS (SELECT "k_model", count(*) AS total_mentions FROM scoped_mentions GROUP BY ALL),
chosen_brands AS (SELECT id, name FROM assets b WHERE category_id = $17 AND TRUE),
brand_mentions AS (
  SELECT "k_model", asset_id, count(*) AS mentions, count(DISTINCT execution_id) AS mentioned, sum(position) AS position_sum
  FROM scoped_mentions WHERE asset_id IN (SELECT id FROM chosen_brands) GROUP BY ALL
),
grouped AS (SELECT b.id AS "k0", "g"."k_model" AS "k1", coalesce(bm.mentioned, 0) / NULLIF(g.executions, 0) AS "m0", coalesce(coalesce(bm.mentions, 0) / NULLIF(coalesce(t.total_mentions, 0), 0), 0.0) AS "m1", coalesce(bm.position_sum / NULLIF(coalesce(bm.mentions, 0), 0), 0.0) AS "m2", coalesce(bm.mentions, 0) AS "m3", g.executions AS "m4"
FROM answer_groups g CROSS JOIN chosen_brands b LEFT JOIN brand_mentions bm ON "bm"."k_model" IS NOT DISTINCT FROM "g"."k_model" AND bm.asset_id = b.id
LEFT JOIN group_mentions t ON "t"."k_model" IS NOT DISTINCT FROM "g"."k_model"),
labeled AS (SELECT g.*, "n0"."name" AS "d0", "n1"."name" AS "d1" FROM grouped g
LEFT JOIN "assets" "n0" ON "n0".id = "g"."k0"
LEFT JOIN "models" "n1" ON "n1".id = "g"."k1"),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", "m3" AS "out_m3", "m4" AS "out_m4", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $18 OFFSET $19) page_rows
ORDER BY "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-00000000000b","visibility","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z","00000000-0000-4000-8000-00000000000b","alpha","","00000000-0000-4000-8000-000000000029","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z","00000000-0000-4000-8000-00000000000b","alpha","","00000000-0000-4000-8000-000000000029","00000000-0000-4000-8000-00000000000b",8,0]
