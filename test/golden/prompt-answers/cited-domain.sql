WITH scoped_answers AS NOT MATERIALIZED (SELECT f.id, f.day, f.executed_at, f.model_id FROM executions f JOIN (SELECT "id", "prompt", "topic_id", "tag_ids", "analysis_types", "prompt_type", "asset_id" FROM prompts WHERE category_id = $1) p ON p.id = f.prompt_id WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND (COALESCE(f.id IN (SELECT execution_id FROM citations WHERE category_id = $5 AND lower(hostname) IN (lower($6))), FALSE)) AND (COALESCE(list_has_any(p.analysis_types, [$7, $8]), FALSE))),
answer_days AS MATERIALIZED (SELECT day, model_id, count(*) AS n FROM scoped_answers GROUP BY day, model_id)
SELECT 0 AS unit, 0 AS seq, (SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM answer_days) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "answer_days") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH numbered AS (
  SELECT id, day, $9 + row_number() OVER (ORDER BY executed_at DESC, id) AS unit
  FROM (SELECT * FROM scoped_answers WHERE day >= (SELECT coalesce(max(day) FILTER (WHERE seen >= $10), min(day)) FROM (SELECT day, sum(n) OVER (ORDER BY day DESC) AS seen FROM (SELECT day, sum(n) AS n FROM answer_days GROUP BY day))) ORDER BY executed_at DESC, id LIMIT $11 OFFSET $12)
),
page_answers AS MATERIALIZED (
  SELECT o.unit, f.* FROM numbered o JOIN executions f ON f.category_id = $13 AND f.day = o.day AND f.id = o.id
),
page_prompts AS (
  SELECT pr."id", pr."prompt", pr."topic_id", pr."tag_ids", pr."analysis_types", pr."prompt_type", pr."asset_id", coalesce(tn.tag_names, []) AS tag_names
  FROM prompts pr
  LEFT JOIN (
    SELECT x.id, list(t.name ORDER BY t.name, t.id) AS tag_names
    FROM (SELECT id, unnest(CASE WHEN len(tag_ids) = 0 THEN [NULL::VARCHAR] ELSE list_distinct(tag_ids) END) AS tag_id FROM prompts WHERE category_id = $14 AND id IN (SELECT prompt_id FROM page_answers)) x
    JOIN tags t ON t.id = x.tag_id AND t.category_id = $15
    GROUP BY x.id
  ) tn ON tn.id = pr.id
  WHERE pr.category_id = $16
)
SELECT f.unit, 0 AS seq, CAST(f.id AS VARCHAR) AS "run_id", f.executed_at AS "date", {'id': f.model_id, 'name': mo.name} AS "model", pe.name AS "persona", CAST(to_json(p.tag_names) AS VARCHAR) AS "tags", CAST(to_json(coalesce("l_mentions_v".v, [])) AS VARCHAR) AS "mentions", CAST(to_json(coalesce("l_citations_v".v, [])) AS VARCHAR) AS "citations", CAST(to_json(coalesce("l_queries_v".v, [])) AS VARCHAR) AS "search_queries", CAST(to_json(list_transform(p.analysis_types, t -> CASE WHEN t = 'accuracy' THEN 'factcheck' ELSE t END)) AS VARCHAR) AS "analysis_types"
FROM page_answers f
JOIN page_prompts p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN (
    SELECT m.execution_id AS id, list(a.name ORDER BY m.position, a.name) AS v
    FROM (SELECT x."execution_id" AS "execution_id", x."position" AS "position", x."asset_id" AS "asset_id" FROM "mentions" x SEMI JOIN numbered o ON o.day = x.day AND o.id = x.execution_id WHERE x.category_id = $17) m JOIN assets a ON a.id = m.asset_id GROUP BY m.execution_id
) "l_mentions_v" ON "l_mentions_v".id = f.id
LEFT JOIN (
    SELECT q.execution_id AS id, list(q.url ORDER BY q.position) AS v FROM (SELECT x."execution_id" AS "execution_id", x."position" AS "position", x."url" AS "url" FROM "citations" x SEMI JOIN numbered o ON o.day = x.day AND o.id = x.execution_id WHERE x.category_id = $18) q GROUP BY q.execution_id
) "l_citations_v" ON "l_citations_v".id = f.id
LEFT JOIN (
    SELECT q.execution_id AS id, list(q.query ORDER BY q.position) AS v FROM (SELECT x."execution_id" AS "execution_id", x."position" AS "position", x."query" AS "query" FROM "fanouts" x SEMI JOIN numbered o ON o.day = x.day AND o.id = x.execution_id WHERE x.category_id = $19) q GROUP BY q.execution_id
) "l_queries_v" ON "l_queries_v".id = f.id)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","WWW.Acme.Example","sentiment","accuracy",0,2,2,0,"00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b"]
