WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
c AS (
  SELECT f.model_id AS "k_model", f.model_id, f.url AS entity, f.citation_category, f.executed_at, TRUE AS hit
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE AND COALESCE(TRUE, FALSE)
),
den AS (SELECT "k_model", model_id, count(*) AS total FROM c GROUP BY ALL),
models_in AS (SELECT "k_model", count(*) AS models FROM den GROUP BY "k_model"),
num AS (
  SELECT "k_model", entity, model_id, count(*) AS n, min(executed_at) AS first_at, bool_or(citation_category = 'owned') AS owned
  FROM c WHERE hit GROUP BY ALL
),
-- TRICKY: the per-model shares are summed in ascending order, so the double never depends on scan order
-- (pages, the stream and ties in the ranking stay identical from run to run).
scored AS (
  SELECT "k_model", entity, CAST(sum(n) AS BIGINT) AS count, list_sum(list_sort(list(n / total))) / any_value(models) AS citation_share,
         min(first_at) AS first_cited_at, bool_or(owned) AS owned
  FROM (
    SELECT num.*, den.total, mi.models FROM num
    JOIN den ON "num"."k_model" IS NOT DISTINCT FROM "den"."k_model" AND den.model_id = num.model_id
    JOIN models_in mi ON "num"."k_model" IS NOT DISTINCT FROM "mi"."k_model"
  )
  GROUP BY ALL
),
ranked AS (
  SELECT *, row_number() OVER (PARTITION BY "k_model" ORDER BY count DESC, citation_share DESC, entity) AS rank FROM scored
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY "d_model"."name" NULLS LAST, "r"."k_model" NULLS LAST, r.rank) AS unit, 0 AS seq,
       json_object('model', CASE WHEN "r"."k_model" IS NULL THEN NULL ELSE json_object('id', "r"."k_model", 'name', "d_model"."name") END, 'page', r.entity, 'rank', r.rank, 'count', r.count, 'citation_share', r.citation_share, 'first_cited_at', strftime(timezone('UTC', r.first_cited_at), '%Y-%m-%dT%H:%M:%SZ'))::VARCHAR AS row
FROM ranked r
LEFT JOIN "models" AS "d_model" ON "d_model".id = "r"."k_model"
WHERE r.owned),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "c" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $5 AND unit <= $6)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-08","2026-11-01",0,4]
