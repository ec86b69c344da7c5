WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
c AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.model_id, f.root_domain AS entity, f.citation_category, f.executed_at, (COALESCE(f.root_domain IN (
    SELECT d.root_domain FROM citation_tag_domains d JOIN citation_tags t ON t.id = d.tag_id
    WHERE t.organization_id = $2 AND (t.id IN ($3, $4) OR t.name IN ($5, $6))), FALSE)) AND (NOT (COALESCE((lower(f.hostname) = lower($7) OR ends_with(lower(f.hostname), '.' || lower($8))), FALSE))) AS hit
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE) AND list_has_any(p.analysis_types, [$12]) AND NOT COALESCE(f.persona_id IN (SELECT id FROM "personas" WHERE category_id = $13 AND (id IN ($14) OR "name" IN ($15))), FALSE)
),
den AS (SELECT "k_date", model_id, count(*) AS total FROM c GROUP BY ALL),
models_in AS (SELECT "k_date", count(*) AS models FROM den GROUP BY "k_date"),
num AS (
  SELECT "k_date", entity, model_id, count(*) AS n, min(executed_at) AS first_at, bool_or(citation_category = 'owned') AS owned
  FROM c WHERE hit GROUP BY ALL
),
-- TRICKY: the per-model shares are summed in ascending order, so the double never depends on scan order
-- (pages, the stream and ties in the ranking stay identical from run to run).
scored AS (
  SELECT "k_date", entity, CAST(sum(n) AS BIGINT) AS count, list_sum(list_sort(list(n / total))) / any_value(models) AS citation_share,
         min(first_at) AS first_cited_at, bool_or(owned) AS owned
  FROM (
    SELECT num.*, den.total, mi.models FROM num
    JOIN den ON "num"."k_date" IS NOT DISTINCT FROM "den"."k_date" AND den.model_id = num.model_id
    JOIN models_in mi ON "num"."k_date" IS NOT DISTINCT FROM "mi"."k_date"
  )
  GROUP BY ALL
),
ranked AS (
  SELECT *, row_number() OVER (PARTITION BY "k_date" ORDER BY count DESC, citation_share DESC, entity) AS rank FROM scored
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY "r"."k_date", r.rank) AS unit, 0 AS seq,
       json_object('date', strftime("r"."k_date", '%Y-%m-%d'), 'domain', r.entity, 'rank', r.rank, 'count', r.count, 'citation_share', r.citation_share)::VARCHAR AS row
FROM ranked r

WHERE TRUE),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "c" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $16 AND unit <= $17)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-000000000001","Press","00000000-0000-4000-8000-000000000270","Press","00000000-0000-4000-8000-000000000270","blog.acme.example","blog.acme.example","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility","00000000-0000-4000-8000-00000000000b","","",0,3]
