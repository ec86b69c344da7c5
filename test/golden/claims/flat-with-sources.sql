WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
scoped_occurrences AS (
  SELECT f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
scoped_answers AS (
  SELECT f.model_id
  FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
answers AS (SELECT count(*) AS answers FROM scoped_answers),
all_claims AS (SELECT "b".*, cc.claim, 100 * b.n / a.answers AS occurrence
  FROM (SELECT cluster_id, count(*) AS n FROM scoped_occurrences WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON TRUE
  JOIN claim_clusters cc ON cc.id = b.cluster_id)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM all_claims) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "scoped_answers") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH claims AS (
  SELECT $9 + row_number() OVER (ORDER BY occurrence DESC, claim, cluster_id) AS unit, *
  FROM (SELECT * FROM all_claims ORDER BY occurrence DESC, claim, cluster_id LIMIT $10 OFFSET $11)
),
claim_evidence_list AS (
  SELECT cluster_id, list({'id': id, 'kb_path': kb_path, 'kb_snippet': kb_snippet, 'source_updated_at': strftime(source_updated_at, '%Y-%m-%dT%H:%M:%SZ')} ORDER BY kb_path, id) AS evidence
  FROM claim_evidence WHERE cluster_id IN (SELECT cluster_id FROM claims) GROUP BY cluster_id
),
cited AS (
  SELECT c.cluster_id, f.model_id, f.url, f.hostname, f.citation_category, f.title
  FROM (SELECT DISTINCT execution_id, cluster_id FROM scoped_occurrences WHERE NOT accurate AND cluster_id IN (SELECT cluster_id FROM claims)) c
  JOIN citations f ON f.execution_id = c.execution_id
  WHERE f.category_id = $12 AND f.day BETWEEN CAST($13 AS DATE) AND CAST($14 AS DATE)
),
per_model AS (
  SELECT cluster_id, model_id, url, count(*) AS n, sum(count(*)) OVER (PARTITION BY cluster_id, model_id) AS total
  FROM cited GROUP BY cluster_id, model_id, url
),
sources AS (
  SELECT *, row_number() OVER (PARTITION BY cluster_id ORDER BY citation_share DESC, url) AS place
  FROM (
    SELECT s.cluster_id, s.url, 100 * list_sum(list_sort(list(s.n / s.total))) / any_value(m.models) AS citation_share
    FROM per_model s
    JOIN (SELECT cluster_id, count(DISTINCT model_id) AS models FROM cited GROUP BY cluster_id) m ON m.cluster_id = s.cluster_id
    GROUP BY s.cluster_id, s.url
  )
),
claim_sources AS (
  SELECT s.cluster_id, list({'href': regexp_replace(s.url, '^[A-Za-z][A-Za-z0-9+.-]*://', ''), 'hostname': a.hostname, 'citation_category': a.citation_category, 'domain_category': a.citation_category, 'snippet': a.title, 'citation_share': s.citation_share} ORDER BY s.place) AS citation_sources
  FROM sources s
  JOIN (
    SELECT url, min(hostname) AS hostname, min(citation_category) AS citation_category, min(title) AS title
    FROM cited WHERE url IN (SELECT url FROM sources WHERE place <= $15) GROUP BY url
  ) a USING (url)
  WHERE s.place <= $16
  GROUP BY s.cluster_id
)
SELECT c.unit, 0 AS seq, c.cluster_id AS "cluster_id", cc.claim AS "claim", c.occurrence AS "occurrence", CAST(to_json(coalesce(ce.evidence, [])) AS VARCHAR) AS "evidence", CAST(to_json(coalesce(cs.citation_sources, [])) AS VARCHAR) AS "citation_sources"
FROM claims c
JOIN claim_clusters cc ON cc.id = c.cluster_id
LEFT JOIN claim_evidence_list ce ON ce.cluster_id = c.cluster_id
LEFT JOIN claim_sources cs ON cs.cluster_id = c.cluster_id)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,3,0,"00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",10,10]
