WITH e AS (
  SELECT f.model_id AS "k_model", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.model_id, f.executions AS n
  FROM "rollup_visibility_daily_executions" f
  WHERE f.category_id = $1 AND f.day BETWEEN CAST($2 AS DATE) AND CAST($3 AS DATE) AND NOT COALESCE(f.model_id IN (SELECT id FROM "models" WHERE TRUE AND (id IN ($4) OR "name" IN ($5))), FALSE)
),
m AS (
  SELECT f.model_id AS "k_model", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.asset_id, sum(f.mentions) AS mentions, sum(f.position_sum) AS position_sum
  FROM "rollup_visibility_daily_mentions" f
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND NOT COALESCE(f.model_id IN (SELECT id FROM "models" WHERE TRUE AND (id IN ($9) OR "name" IN ($10))), FALSE)
  GROUP BY ALL
),
g AS (
  SELECT "k_model", "k_date", sum(n) AS executions FROM e
  GROUP BY "k_model", "k_date"
),
t AS (
  SELECT "k_model", "k_date", sum(mentions) AS total_mentions FROM m
  GROUP BY "k_model", "k_date"
),
scored AS (
  SELECT "g"."k_model", "g"."k_date", a.id AS asset_id, a.name, a.is_owned, g.executions,
         coalesce(m.mentions, 0) AS mentions, m.position_sum, coalesce(t.total_mentions, 0) AS total_mentions
  FROM g
  CROSS JOIN (SELECT id, name, is_owned FROM assets WHERE category_id = $11) a
  LEFT JOIN m ON m.asset_id = a.id AND "m"."k_model" IS NOT DISTINCT FROM "g"."k_model" AND "m"."k_date" IS NOT DISTINCT FROM "g"."k_date"
  LEFT JOIN t ON "t"."k_model" IS NOT DISTINCT FROM "g"."k_model" AND "t"."k_date" IS NOT DISTINCT FROM "g"."k_date"
),
metrics AS (
  SELECT *, mentions / executions AS "visibility_score", CASE WHEN total_mentions = 0 THEN 0.0 ELSE mentions / total_mentions END AS "share_of_voice", position_sum / NULLIF(mentions, 0) AS "average_position" FROM scored
),
ranked AS (
  SELECT *, row_number() OVER (PARTITION BY "k_model", "k_date" ORDER BY "visibility_score" DESC NULLS LAST, name, asset_id) AS rank FROM metrics
),
width AS (
  SELECT count(*) AS k FROM (SELECT id AS asset_id, name, is_owned FROM assets WHERE category_id = $12) r WHERE TRUE
),
kept AS (
  SELECT r.*, r.rank AS place FROM ranked r CROSS JOIN width w WHERE TRUE
),
ordinals AS (
  SELECT "g"."k_model", "g"."k_date", row_number() OVER (ORDER BY "d_model"."name" NULLS LAST, "g"."k_model" NULLS LAST, "g"."k_date") AS ordinal
  FROM g
  LEFT JOIN "models" AS "d_model" ON "d_model".id = "g"."k_model"
),
rows AS (SELECT (o.ordinal - 1) * w.k + r.place AS unit,
       0 AS seq,
       to_json({'model': CASE WHEN "r"."k_model" IS NULL THEN NULL ELSE {'id': "r"."k_model", 'name': "d_model"."name"} END, 'date': strftime("r"."k_date", '%Y-%m-%d'), 'asset': {'name': r.name, 'owned': r.is_owned}, 'rank': r.rank, 'visibility_score': r."visibility_score", 'share_of_voice': r."share_of_voice", 'average_position': r."average_position"})::VARCHAR AS row
FROM kept r
JOIN ordinals o ON "o"."k_model" IS NOT DISTINCT FROM "r"."k_model" AND "o"."k_date" IS NOT DISTINCT FROM "r"."k_date"
CROSS JOIN width w
LEFT JOIN "models" AS "d_model" ON "d_model".id = "r"."k_model"),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $13 AND unit <= $14)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT count(*) * (SELECT k FROM width) FROM g),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31","Perplexity","Perplexity","00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31","Perplexity","Perplexity","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b",0,5]
