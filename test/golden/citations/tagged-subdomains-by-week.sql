WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
scoped_citations AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.model_id, f.root_domain AS entity, f.citation_category, f.executed_at, (COALESCE(f.root_domain IN (
    SELECT d.root_domain FROM citation_tag_domains d JOIN citation_tags t ON t.id = d.tag_id
    WHERE t.organization_id = $2 AND (t.id IN ($3, $4) OR t.name IN ($5, $6))), FALSE)) AND (NOT (COALESCE((lower(f.hostname) = lower($7) OR ends_with(lower(f.hostname), '.' || lower($8))), FALSE))) AS hit
  FROM citations f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND list_has_any(p.analysis_types, [$12]) AND NOT COALESCE(f.persona_id IN (SELECT id FROM "personas" WHERE category_id = $13 AND (id IN ($14) OR "name" IN ($15))), FALSE)
),
cited AS MATERIALIZED (
  SELECT "k_date", entity, model_id, hit, count(*) AS n, min(executed_at) AS first_at, bool_or(citation_category = 'owned') AS owned
  FROM scoped_citations GROUP BY ALL
),
parts AS (SELECT "k_date", count(DISTINCT entity) AS n_all, count(DISTINCT entity) AS n_kept
FROM cited WHERE hit GROUP BY "k_date"),
ordinals AS (
  SELECT "x"."k_date" AS "k_date", row_number() OVER w AS ordinal, x.n_kept,
         CAST(sum(x.n_all) OVER w - x.n_all AS BIGINT) AS all_before, CAST(sum(x.n_kept) OVER w - x.n_kept AS BIGINT) AS kb
  FROM parts x
  
  WINDOW w AS (ORDER BY "x"."k_date" ROWS UNBOUNDED PRECEDING)
)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "cited") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (WITH page_partitions AS (
  SELECT * FROM ordinals WHERE kb + n_kept > $16 AND kb < $17
),
page_start AS (SELECT min(kb) AS k0, min(all_before) AS a0 FROM page_partitions),
den AS (SELECT "k_date", model_id, CAST(sum(n) AS BIGINT) AS total FROM cited GROUP BY ALL),
models_in AS (SELECT "k_date", count(*) AS models FROM den GROUP BY "k_date"),
num AS (
  SELECT "k_date", entity, model_id, n, first_at, owned
  FROM cited c SEMI JOIN "page_partitions" ON "c"."k_date" IS NOT DISTINCT FROM "page_partitions"."k_date" WHERE hit
),
scored AS (
  SELECT "k_date", entity, CAST(sum(n) AS BIGINT) AS count, list_sum(list_sort(list(n / total))) / any_value(models) AS citation_share,
         min(first_at) AS first_cited_at, bool_or(owned) AS owned
  FROM (
    SELECT "num".*, den.total, mi.models FROM num
    JOIN den ON "num"."k_date" IS NOT DISTINCT FROM "den"."k_date" AND den.model_id = num.model_id
    JOIN models_in mi ON "num"."k_date" IS NOT DISTINCT FROM "mi"."k_date"
  )
  GROUP BY ALL
)
SELECT "x".*, b.k0 + row_number() OVER w AS unit, row_number() OVER w - (pg.all_before - b.a0) AS rank
FROM scored x
JOIN page_partitions pg ON "x"."k_date" IS NOT DISTINCT FROM "pg"."k_date"
CROSS JOIN page_start b

WINDOW w AS (ORDER BY pg.ordinal, "x".count DESC, "x".citation_share DESC, "x".entity)
QUALIFY unit > $18 AND unit <= $19)
SELECT t.unit, 0 AS seq, "t"."k_date" AS "g_date_day", "t".entity, "t"."rank", "t"."count", "t"."citation_share"
FROM ranked_rows t
)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-000000000001","Press","00000000-0000-4000-8000-000000000270","Press","00000000-0000-4000-8000-000000000270","blog.acme.example","blog.acme.example","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility","00000000-0000-4000-8000-00000000000b","","",0,3,0,3]
