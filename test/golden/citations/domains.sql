WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
c AS (
  SELECT f.model_id, f.root_domain AS entity, f.citation_category, f.executed_at, TRUE AS hit
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND list_has_any(p.analysis_types, [$5]) AND TRUE
),
den AS (SELECT model_id, count(*) AS total FROM c GROUP BY ALL),
models_in AS (SELECT count(*) AS models FROM den HAVING count(*) > 0),
num AS (
  SELECT entity, model_id, count(*) AS n, min(executed_at) AS first_at, bool_or(citation_category = 'owned') AS owned
  FROM c WHERE hit GROUP BY ALL
),
-- TRICKY: the per-model shares are summed in ascending order, so the double never depends on scan order
-- (pages, the stream and ties in the ranking stay identical from run to run).
scored AS (
  SELECT entity, CAST(sum(n) AS BIGINT) AS count, list_sum(list_sort(list(n / total))) / any_value(models) AS citation_share,
         min(first_at) AS first_cited_at, bool_or(owned) AS owned
  FROM (
    SELECT num.*, den.total, mi.models FROM num
    JOIN den ON TRUE AND den.model_id = num.model_id
    JOIN models_in mi ON TRUE
  )
  GROUP BY ALL
),
ranked AS (
  SELECT *, row_number() OVER (ORDER BY count DESC, citation_share DESC, entity) AS rank FROM scored
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY r.rank) AS unit, 0 AS seq,
       json_object('domain', r.entity, 'rank', r.rank, 'count', r.count, 'citation_share', r.citation_share)::VARCHAR AS row
FROM ranked r

WHERE TRUE),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "c" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $6 AND unit <= $7)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility",0,4]
