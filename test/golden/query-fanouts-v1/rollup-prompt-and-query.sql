WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1
),
scoped_fanouts AS (
  SELECT f.prompt_id AS "k_prompt", f.query AS "k_query", f.n AS w
  FROM "rollup_fanouts_daily_fanouts" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day >= CAST($3 AS DATE) AND f.day < CAST($4 AS DATE) AND COALESCE(list_has_any(p.tag_ids, [$5]), FALSE)
),
row_fanouts AS (SELECT "k_prompt", "k_query", CAST(sum(w) AS BIGINT) AS fanouts FROM scoped_fanouts GROUP BY "k_prompt", "k_query"),
group_fanouts AS (SELECT "k_prompt", CAST(sum(w) AS BIGINT) AS group_fanouts FROM scoped_fanouts GROUP BY ALL),
searching_answers AS (
  SELECT f.prompt_id AS "k_prompt", f.searched AS w
  FROM "rollup_fanouts_daily_runs" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.day >= CAST($7 AS DATE) AND f.day < CAST($8 AS DATE) AND COALESCE(list_has_any(p.tag_ids, [$9]), FALSE) AND f.searched > 0
),
group_searching AS (SELECT "k_prompt", CAST(sum(w) AS BIGINT) AS executions FROM searching_answers GROUP BY ALL),
grouped AS (SELECT "n"."k_prompt" AS "k0", "n"."k_query" AS "k1", n.fanouts AS "m0", n.fanouts / NULLIF(coalesce(xe.executions, 0), 0) AS "m1", n.fanouts / pg.group_fanouts AS "m2"
FROM row_fanouts n LEFT JOIN group_fanouts pg ON "n"."k_prompt" IS NOT DISTINCT FROM "pg"."k_prompt" LEFT JOIN group_searching xe ON "n"."k_prompt" IS NOT DISTINCT FROM "xe"."k_prompt"),
labeled AS (SELECT g.*, "n0"."prompt" AS "d0", "g"."k1" AS "d1" FROM grouped g
LEFT JOIN "prompts" "n0" ON "n0".id = "g"."k0"),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $10 OFFSET $11) page_rows
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-12-01","00000000-0000-4000-8000-00000000003d","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-12-01","00000000-0000-4000-8000-00000000003d",8,0]
