WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
e AS (
  SELECT f.model_id FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $6 AND (id IN ($7) OR "name" IN ($8))), FALSE)
),
o AS (
  SELECT cc.theme AS "k_theme", f.model_id AS "k_model", f.accurate
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND NOT COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $12 AND (id IN ($13) OR "name" IN ($14))), FALSE)
),
s AS (
  SELECT "k_theme", "k_model", count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o GROUP BY "k_theme", "k_model"
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY "r"."k_theme" NULLS LAST, "d_model"."name" NULLS LAST, "r"."k_model" NULLS LAST) AS unit, 0 AS seq,
       json_object('theme', CASE WHEN "r"."k_theme" IS NULL THEN NULL ELSE json_object('id', "d_theme".id, 'name', "r"."k_theme") END, 'model', CASE WHEN "r"."k_model" IS NULL THEN NULL ELSE json_object('id', "r"."k_model", 'name', "d_model"."name") END, 'accuracy', r.accurate / (r.accurate + r.inaccurate), 'accurate', r.accurate, 'inaccurate', r.inaccurate)::VARCHAR AS row
FROM s r
LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = $15 GROUP BY name) AS "d_theme" ON "d_theme".name = "r"."k_theme"
LEFT JOIN "models" AS "d_model" ON "d_model".id = "r"."k_model"),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "e" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $16 AND unit <= $17)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Boots","Boots","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","Boots","Boots","00000000-0000-4000-8000-00000000000b",0,4]
