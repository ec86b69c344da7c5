WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1
),
base AS (
  SELECT f.root_domain AS "k_root_domain", CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.model_id AS model_key, TRUE AS hit, f.executed_at AS cited_at, f.n
  FROM "rollup_citations_daily_citations" f
  WHERE f.category_id = $2 AND f.day >= CAST($3 AS DATE) AND f.day < CAST($4 AS DATE) AND COALESCE(f.model_id = $5, FALSE)
),
num AS (
  SELECT "k_root_domain", "k_date", model_key, CAST(coalesce(sum(n) FILTER (WHERE hit), 0) AS BIGINT) AS n, min(cited_at) FILTER (WHERE hit) AS first_at FROM base GROUP BY ALL
),
den AS (SELECT "k_date", model_key, CAST(sum(n) AS BIGINT) AS total FROM base GROUP BY ALL),
model_counts AS (SELECT "k_date", count(*) AS models FROM den GROUP BY ALL),
grouped AS (SELECT "num"."k_root_domain" AS "k0", "num"."k_date" AS "k1", CAST(sum(num.n) AS BIGINT) AS "m0", list_sum(list_sort(list(num.n / den.total))) / any_value(model_counts.models) AS "m1", epoch_ms(min(num.first_at)) // 1000 AS "m2"
FROM num JOIN den ON "num"."k_date" IS NOT DISTINCT FROM "den"."k_date" AND num.model_key = den.model_key
JOIN model_counts ON "num"."k_date" IS NOT DISTINCT FROM "model_counts"."k_date"
GROUP BY "k0", "k1" HAVING sum(num.n) > 0),
labeled AS (SELECT g.*, "g"."k0" AS "d0", strftime("g"."k1", '%Y-%m-%d') AS "d1" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $6 OFFSET $7
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-12-01","00000000-0000-4000-8000-000000000015",8,0]
