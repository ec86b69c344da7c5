WITH p AS (
  SELECT id, topic_id, tag_ids FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, 'visibility')
),
e AS (
  SELECT f.model_id, count(*) AS n
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND (COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $5 AND (id IN ($6) OR "name" IN ($7))), FALSE)) AND (NOT (COALESCE(f.persona_id IN (SELECT id FROM "personas" WHERE category_id = $8 AND (id IN ($9, $10) OR "name" IN ($11, $12))), FALSE)))
  GROUP BY ALL
),
m AS (
  SELECT f.asset_id, count(*) AS mentions, sum(f.position) AS position_sum
  FROM mentions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $13 AND f.day BETWEEN CAST($14 AS DATE) AND CAST($15 AS DATE) AND (COALESCE(p.topic_id IN (SELECT id FROM "topics" WHERE category_id = $16 AND (id IN ($17) OR "name" IN ($18))), FALSE)) AND (NOT (COALESCE(f.persona_id IN (SELECT id FROM "personas" WHERE category_id = $19 AND (id IN ($20, $21) OR "name" IN ($22, $23))), FALSE)))
  GROUP BY ALL
),
g AS (
  SELECT sum(n) AS executions FROM e
  HAVING sum(n) > 0
),
t AS (
  SELECT sum(mentions) AS total_mentions FROM m
  
),
scored AS (
  SELECT a.id AS asset_id, a.name, a.is_owned, g.executions,
         coalesce(m.mentions, 0) AS mentions, m.position_sum, coalesce(t.total_mentions, 0) AS total_mentions
  FROM g
  CROSS JOIN (SELECT id, name, is_owned FROM assets WHERE category_id = $24) a
  LEFT JOIN m ON m.asset_id = a.id AND TRUE
  LEFT JOIN t ON TRUE
),
metrics AS (
  SELECT *, mentions / executions AS "visibility_score", CASE WHEN total_mentions = 0 THEN 0.0 ELSE mentions / total_mentions END AS "share_of_voice", position_sum / NULLIF(mentions, 0) AS "average_position" FROM scored
),
ranked AS (
  SELECT *, row_number() OVER ( ORDER BY "average_position" ASC NULLS LAST, name, asset_id) AS rank FROM metrics
),
width AS (
  SELECT count(*) AS k FROM (SELECT id AS asset_id, name, is_owned FROM assets WHERE category_id = $25) r WHERE (NOT (r.name IN ($26) OR r.asset_id IN ($27)))
),
kept AS (
  SELECT r.*, row_number() OVER ( ORDER BY r.rank DESC) AS place FROM ranked r CROSS JOIN width w WHERE (NOT (r.name IN ($28) OR r.asset_id IN ($29)))
),
ordinals AS (
  SELECT row_number() OVER () AS ordinal
  FROM g
  
),
rows AS (SELECT (o.ordinal - 1) * w.k + r.place AS unit,
       0 AS seq,
       to_json({'asset': {'name': r.name, 'owned': r.is_owned}, 'rank': r.rank, 'share_of_voice': r."share_of_voice", 'average_position': r."average_position"})::VARCHAR AS row
FROM kept r
JOIN ordinals o ON TRUE
CROSS JOIN width w
),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $30 AND unit <= $31)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT count(*) * (SELECT k FROM width) FROM g),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-11-30","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off","00000000-0000-4000-8000-00000000000b","Hiker","","Hiker","","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-11-30","00000000-0000-4000-8000-00000000000b","Tents 50%_off","Tents 50%_off","00000000-0000-4000-8000-00000000000b","Hiker","","Hiker","","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","Quiet","Quiet","Quiet","Quiet",0,10]
