WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1
),
page_mentions AS (
  SELECT url, arg_max(mentioned, analyzed_at) AS mentioned FROM page_analyses
  WHERE category_id = $2 AND analyzed_at <= CAST($3 AS TIMESTAMPTZ)
  GROUP BY url
),
base AS (
  SELECT f.hostname AS "k_hostname", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.model_id AS model_key, (COALESCE(f.url IN (SELECT url FROM page_mentions WHERE mentioned = $4), FALSE)) AND (COALESCE(contains(lower(f."hostname"), lower($5)), FALSE)) AS hit, f.executed_at AS cited_at
  FROM "citations" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.executed_at >= CAST($7 AS TIMESTAMPTZ) AND f.executed_at < CAST($8 AS TIMESTAMPTZ) AND COALESCE(f.model_id IN ($9, $10), FALSE)
),
num AS (
  SELECT "k_hostname", "k_date", model_key, count(*) FILTER (WHERE hit) AS n, min(cited_at) FILTER (WHERE hit) AS first_at FROM base GROUP BY ALL
),
den AS (SELECT "k_date", model_key, count(*) AS total FROM base GROUP BY ALL),
model_counts AS (SELECT "k_date", count(*) AS models FROM den GROUP BY ALL),
grouped AS (SELECT "num"."k_hostname" AS "k0", "num"."k_date" AS "k1", CAST(sum(num.n) AS BIGINT) AS "m0", list_sum(list_sort(list(num.n / den.total))) / any_value(model_counts.models) AS "m1", epoch_ms(min(num.first_at)) // 1000 AS "m2"
FROM num JOIN den ON "num"."k_date" IS NOT DISTINCT FROM "den"."k_date" AND num.model_key = den.model_key
JOIN model_counts ON "num"."k_date" IS NOT DISTINCT FROM "model_counts"."k_date"
GROUP BY "k0", "k1" HAVING sum(num.n) > 0),
labeled AS (SELECT g.*, "g"."k0" AS "d0", strftime("g"."k1", '%Y-%m-%d') AS "d1" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $11 OFFSET $12
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-12-01T05:00:00.000Z",true,"EXAMPLE","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z","00000000-0000-4000-8000-000000000015","00000000-0000-4000-8000-000000000016",8,0]
