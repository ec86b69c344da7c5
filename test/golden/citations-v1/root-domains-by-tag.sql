WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1
),
base AS (
  SELECT f.root_domain AS "k_root_domain", unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", f.model_id AS model_key, NOT COALESCE(f.citation_category = $2, FALSE) AS hit, f.executed_at AS cited_at
  FROM "citations" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $3 AND f.executed_at >= CAST($4 AS TIMESTAMPTZ) AND f.executed_at < CAST($5 AS TIMESTAMPTZ) AND TRUE
),
num AS (
  SELECT "k_root_domain", "k_tag", model_key, count(*) FILTER (WHERE hit) AS n, min(cited_at) FILTER (WHERE hit) AS first_at FROM base GROUP BY ALL
),
den AS (SELECT "k_tag", model_key, count(*) AS total FROM base GROUP BY ALL),
model_counts AS (SELECT "k_tag", count(*) AS models FROM den GROUP BY ALL),
grouped AS (SELECT "num"."k_root_domain" AS "k0", "num"."k_tag" AS "k1", list_sum(list_sort(list(num.n / den.total))) / any_value(model_counts.models) AS "m0", CAST(sum(num.n) AS BIGINT) AS "m1"
FROM num JOIN den ON "num"."k_tag" IS NOT DISTINCT FROM "den"."k_tag" AND num.model_key = den.model_key
JOIN model_counts ON "num"."k_tag" IS NOT DISTINCT FROM "model_counts"."k_tag"
GROUP BY "k0", "k1" HAVING sum(num.n) > 0),
labeled AS (SELECT g.*, "g"."k0" AS "d0", coalesce("n1"."name", '') AS "d1" FROM grouped g
LEFT JOIN "tags" "n1" ON "n1".id = "g"."k1"),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $6 OFFSET $7) page_rows
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-00000000000b","social","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z",8,0]
