WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
target AS (SELECT id, name FROM assets WHERE category_id = $3 AND (name = $4 OR id = $5)),
scoped_assessments AS (
  SELECT f.execution_id, f.model_id, f.sentiment_type, TRUE AS hit
  FROM sentiments f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE "f".category_id = $6 AND "f".day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND f.asset_id IN (SELECT id FROM target) AND TRUE),
cur AS (
  SELECT c.*, 100 * "c".positive / "c".n AS positive_sentiment, 100 - 100 * "c".positive / "c".n AS negative_sentiment
  FROM (
    SELECT count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive
    FROM "scoped_assessments" WHERE hit HAVING count(*) > 0
  ) c),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM cur x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT (SELECT name FROM target) AS asset, coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_assessments") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $9 + row_number() OVER (ORDER BY "y".n DESC) AS unit, unit AS rank
FROM (
  SELECT x.* FROM cur x
  
  ORDER BY "x".n DESC LIMIT $10 OFFSET $11
) y
)
SELECT t.unit, 0 AS seq, "t".rank, "t"."positive_sentiment" AS "positive_sentiment", "t"."negative_sentiment" AS "negative_sentiment"
FROM ranked_rows t

)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","sentiment","00000000-0000-4000-8000-00000000000b","Acme","Acme","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,10,0]
