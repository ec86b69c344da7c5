WITH visibility_prompts AS (
  SELECT id, topic_id, tag_ids FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, 'visibility')
) SELECT f.model_id AS "k_model", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.model_id, CAST(count(*) AS DOUBLE) AS n FROM executions f JOIN visibility_prompts p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE GROUP BY ALL;

WITH visibility_prompts AS (
  SELECT id, topic_id, tag_ids FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, 'visibility')
) SELECT f.model_id AS "k_model", CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.asset_id, CAST(count(*) AS DOUBLE) AS mentions, CAST(sum(f.position) AS DOUBLE) AS position_sum FROM mentions f JOIN visibility_prompts p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE GROUP BY ALL
-- params: [["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-11-30"],["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-11-30"]]
