WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
target AS (SELECT id, name FROM assets WHERE category_id = $3 AND (name = $4 OR id = $5)),
s AS (
  SELECT f.execution_id, f.model_id, f.sentiment_type, TRUE AS hit
  FROM sentiments f JOIN p ON p.id = f.prompt_id
  WHERE "f".category_id = $6 AND "f".day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND f.asset_id IN (SELECT id FROM target) AND TRUE),
cur AS (
  SELECT c.*, 100 * c.positive / c.n AS positive_sentiment, 100 - 100 * c.positive / c.n AS negative_sentiment,
         100 * c.answers / d.answers AS occurrence
  FROM (
    SELECT count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive, count(DISTINCT execution_id) AS answers
    FROM "s" WHERE hit HAVING count(*) > 0
  ) c
  JOIN (SELECT count(DISTINCT execution_id) AS answers FROM "s" HAVING count(*) > 0) d ON TRUE),
ranked AS (
  SELECT x.*, row_number() OVER (ORDER BY x.n DESC) AS rank
  FROM cur x
  
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY r.rank) AS unit, 0 AS seq,
       json_object('rank', r.rank, 'positive_sentiment', "r"."positive_sentiment", 'negative_sentiment', "r"."negative_sentiment")::VARCHAR AS row
FROM ranked r
),
info AS (SELECT json_object('asset', (SELECT name FROM target), 'models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "s" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $9 AND unit <= $10)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","Acme","Acme","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,10]
