WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
scoped_citations AS (
  SELECT f.model_id, f.root_domain AS entity, f.citation_category, f.executed_at, TRUE AS hit
  FROM citations f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND list_has_any(p.analysis_types, [$5]) AND TRUE
),
cited AS MATERIALIZED (
  SELECT entity, model_id, hit, count(*) AS n, min(executed_at) AS first_at, bool_or(citation_category = 'owned') AS owned
  FROM scoped_citations GROUP BY ALL
),
parts AS (SELECT count(DISTINCT entity) AS n_all, count(DISTINCT entity) AS n_kept
FROM cited WHERE hit HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "cited") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (WITH den AS (SELECT model_id, CAST(sum(n) AS BIGINT) AS total FROM cited GROUP BY ALL),
models_in AS (SELECT count(*) AS models FROM den HAVING count(*) > 0),
num AS (
  SELECT entity, model_id, n, first_at, owned
  FROM cited c WHERE hit
),
scored AS (
  SELECT entity, CAST(sum(n) AS BIGINT) AS count, list_sum(list_sort(list(n / total))) / any_value(models) AS citation_share,
         min(first_at) AS first_cited_at, bool_or(owned) AS owned
  FROM (
    SELECT "num".*, den.total, mi.models FROM num
    JOIN den ON TRUE AND den.model_id = num.model_id
    JOIN models_in mi ON TRUE
  )
  GROUP BY ALL
)
SELECT y.*, $6 + row_number() OVER (ORDER BY "y".count DESC, "y".citation_share DESC, "y".entity) AS unit, unit AS rank
FROM (
  SELECT x.* FROM scored x
  
  ORDER BY "x".count DESC, "x".citation_share DESC, "x".entity LIMIT $7 OFFSET $8
) y
)
SELECT t.unit, 0 AS seq, "t".entity, "t"."rank", "t"."count", "t"."citation_share"
FROM ranked_rows t
)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility",0,4,0]
