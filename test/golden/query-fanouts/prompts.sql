WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
scoped_fanouts AS (
  SELECT f.prompt_id AS "k_prompt", f.query AS q FROM fanouts f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND list_has_any(p.analysis_types, [$5]) AND TRUE
),
runs AS (
  SELECT f.prompt_id AS "k_prompt", f.model_id, f.search_triggered FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND list_has_any(p.analysis_types, [$9]) AND TRUE
),
scored AS (
  SELECT "n"."k_prompt" AS "k_prompt", n.fanouts, n.variations, n.fanouts / NULLIF(xe.executions, 0) AS fanouts_per_execution
  FROM (SELECT "k_prompt", CAST(sum(qf) AS BIGINT) AS fanouts, count(q) AS variations FROM (SELECT "k_prompt", q, count(*) AS qf FROM "scoped_fanouts" GROUP BY "k_prompt", q) GROUP BY "k_prompt") n
  LEFT JOIN (SELECT "k_prompt", count(*) AS executions FROM "runs" WHERE search_triggered GROUP BY "k_prompt") xe ON "n"."k_prompt" IS NOT DISTINCT FROM "xe"."k_prompt"),
parts AS (SELECT count(*) AS n_all, count(*) AS n_kept FROM scored x HAVING count(*) > 0)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "runs") x JOIN models mo ON mo.id = x.model_id), []) AS models, r.runs, r.searched FROM (SELECT count(*) AS runs, count(*) FILTER (WHERE search_triggered) AS searched FROM runs) r) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH ranked_rows AS (SELECT y.*, $10 + row_number() OVER (ORDER BY "y".fanouts DESC, "d_prompt".prompt NULLS LAST, "y"."k_prompt" NULLS LAST) AS unit, unit AS rank
FROM (
  SELECT x.* FROM scored x
  LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "x"."k_prompt"
  ORDER BY "x".fanouts DESC, "d_prompt".prompt NULLS LAST, "x"."k_prompt" NULLS LAST LIMIT $11 OFFSET $12
) y
LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "y"."k_prompt")
SELECT t.unit, 0 AS seq, "d_prompt".prompt AS "g_prompt_text", "t"."k_prompt" AS "g_prompt_id", "t".rank, "t"."fanouts", "t"."fanouts_per_execution", "t"."variations"
FROM ranked_rows t
LEFT JOIN prompts AS "d_prompt" ON "d_prompt".id = "t"."k_prompt")
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","visibility",0,10,0]
