WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
fo AS (
  SELECT CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.model_id AS "k_model", f.query AS q FROM fanouts f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE AND (COALESCE(TRUE, FALSE)) AND (COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $5 AND (id IN ($6) OR "name" IN ($7))), FALSE))
),
runs AS (
  SELECT CAST(date_trunc('month', f.day) AS DATE) AS "k_date", f.model_id AS "k_model", f.model_id, f.search_triggered FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $8 AND f.day BETWEEN CAST($9 AS DATE) AND CAST($10 AS DATE) AND TRUE AND (COALESCE(TRUE, FALSE)) AND (COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $11 AND (id IN ($12) OR "name" IN ($13))), FALSE))
),
n AS (SELECT "k_date", "k_model", count(*) AS fanouts, count(DISTINCT q) AS variations FROM fo GROUP BY "k_date", "k_model"),
pg AS (SELECT "k_date", "k_model", count(*) AS group_fanouts FROM fo GROUP BY "k_date", "k_model"),
xe AS (SELECT "k_date", "k_model", count(*) AS executions FROM runs WHERE search_triggered GROUP BY "k_date", "k_model"),
scored AS (
  SELECT n.*, n.fanouts / NULLIF(xe.executions, 0) AS fanouts_per_execution, n.fanouts / pg.group_fanouts AS share
  FROM n LEFT JOIN pg ON "n"."k_date" IS NOT DISTINCT FROM "pg"."k_date" AND "n"."k_model" IS NOT DISTINCT FROM "pg"."k_model" LEFT JOIN xe ON "n"."k_date" IS NOT DISTINCT FROM "xe"."k_date" AND "n"."k_model" IS NOT DISTINCT FROM "xe"."k_model"
),
ranked AS (
  SELECT x.*, row_number() OVER (PARTITION BY "x"."k_date" ORDER BY x.fanouts DESC, "x"."k_date", "d_model"."name" NULLS LAST, "x"."k_model" NULLS LAST) AS rank
  FROM scored x
  LEFT JOIN "models" AS "d_model" ON "d_model".id = "x"."k_model"
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY "r"."k_date", r.rank) AS unit, 0 AS seq,
       json_object('date', strftime("r"."k_date", '%Y-%m-%d'), 'model', CASE WHEN "r"."k_model" IS NULL THEN NULL ELSE json_object('id', "r"."k_model", 'name', "d_model"."name") END, 'rank', r.rank, 'total_fanouts', r.fanouts, 'fanouts_per_execution', r.fanouts_per_execution, 'query_variations', r.variations)::VARCHAR AS row
FROM ranked r
LEFT JOIN "models" AS "d_model" ON "d_model".id = "r"."k_model"),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "runs" x JOIN models mo ON mo.id = x.model_id), []), 'runs', (SELECT count(*) FROM runs), 'searched', (SELECT count(*) FROM runs WHERE search_triggered))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $14 AND unit <= $15)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off",0,4]
