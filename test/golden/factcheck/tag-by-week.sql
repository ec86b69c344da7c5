WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
e AS (
  SELECT f.model_id FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
o AS (
  SELECT unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(p.tag_ids) END) AS "k_tag", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.accurate
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
s AS (
  SELECT "k_tag", "k_date", count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o GROUP BY "k_tag", "k_date"
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY "d_tag"."name" NULLS LAST, "r"."k_tag" NULLS LAST, "r"."k_date") AS unit, 0 AS seq,
       json_object('tag', CASE WHEN "r"."k_tag" IS NULL THEN NULL ELSE json_object('id', "r"."k_tag", 'name', "d_tag"."name") END, 'date', strftime("r"."k_date", '%Y-%m-%d'), 'accuracy', r.accurate / (r.accurate + r.inaccurate), 'accurate', r.accurate, 'inaccurate', r.inaccurate)::VARCHAR AS row
FROM s r
LEFT JOIN "tags" AS "d_tag" ON "d_tag".id = "r"."k_tag"),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "e" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $9 AND unit <= $10)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01",0,4]
