WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
fo AS (
  SELECT f.prompt_id AS "k_prompt", f.query AS "k_query", f.query AS q FROM fanouts f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND list_has_any(p.analysis_types, [$5]) AND TRUE
),
runs AS (
  SELECT f.prompt_id AS "k_prompt", f.model_id, f.search_triggered FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND list_has_any(p.analysis_types, [$9]) AND TRUE
),
n AS (SELECT "k_prompt", "k_query", count(*) AS fanouts, count(DISTINCT q) AS variations FROM fo GROUP BY "k_prompt", "k_query"),
pg AS (SELECT "k_prompt", count(*) AS group_fanouts FROM fo GROUP BY "k_prompt"),
xe AS (SELECT "k_prompt", count(*) AS executions FROM runs WHERE search_triggered GROUP BY "k_prompt"),
scored AS (
  SELECT n.*, n.fanouts / NULLIF(xe.executions, 0) AS fanouts_per_execution, n.fanouts / pg.group_fanouts AS share
  FROM n LEFT JOIN pg ON "n"."k_prompt" IS NOT DISTINCT FROM "pg"."k_prompt" LEFT JOIN xe ON "n"."k_prompt" IS NOT DISTINCT FROM "xe"."k_prompt"
),
ranked AS (
  SELECT x.*, row_number() OVER (ORDER BY x.fanouts DESC, "d_prompt".prompt NULLS LAST, "x"."k_prompt" NULLS LAST, "x"."k_query" NULLS LAST) AS rank
  FROM scored x
  LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "x"."k_prompt"
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY r.rank) AS unit, 0 AS seq,
       json_object('prompt', "d_prompt".prompt, 'prompt_id', "r"."k_prompt", 'query', "r"."k_query", 'rank', r.rank, 'total_fanouts', r.fanouts, 'fanouts_per_execution', r.fanouts_per_execution, 'share', r.share)::VARCHAR AS row
FROM ranked r
LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "r"."k_prompt"),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "runs" x JOIN models mo ON mo.id = x.model_id), []), 'runs', (SELECT count(*) FROM runs), 'searched', (SELECT count(*) FROM runs WHERE search_triggered))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $10 AND unit <= $11)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility",0,4]
