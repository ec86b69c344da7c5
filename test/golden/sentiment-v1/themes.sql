WITH scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_assessments AS (
  SELECT f.theme_id AS "k_theme", f.persona_id AS "k_persona", f.sentiment_type AS sentiment
  FROM "sentiments" f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $3 AND f.executed_at >= CAST($4 AS TIMESTAMPTZ) AND f.executed_at < CAST($5 AS TIMESTAMPTZ) AND COALESCE(f.asset_id IN (SELECT id FROM "assets" WHERE category_id = $6 AND "name" = $7), FALSE)
),
grouped AS (SELECT "scoped_assessments"."k_theme" AS "k0", "scoped_assessments"."k_persona" AS "k1", count(*) FILTER (WHERE sentiment = 'positive') AS "m0", count(*) FILTER (WHERE sentiment = 'negative') AS "m1", count(*) AS "m2" FROM "scoped_assessments" GROUP BY "k_theme", "k_persona"),
labeled AS (SELECT g.*, "n0"."name" AS "d0", coalesce("n1"."name", '') AS "d1" FROM grouped g
LEFT JOIN "themes" "n0" ON "n0".id = "g"."k0"
LEFT JOIN "personas" "n1" ON "n1".id = "g"."k1"),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $8 OFFSET $9) page_rows
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z","00000000-0000-4000-8000-00000000000b","Acme",8,0]
