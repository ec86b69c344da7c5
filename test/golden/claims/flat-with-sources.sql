WITH p AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, $2)
),
o AS (
  SELECT f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
e AS (
  SELECT f.id AS execution_id, f.model_id
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND TRUE
),
answers AS (SELECT count(*) AS answers FROM e),
answers_by_model AS (SELECT model_id, count(*) AS answers FROM e GROUP BY ALL),
claims AS (
  SELECT b.*, 100 * b.n / a.answers AS occurrence
  FROM (SELECT cluster_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON TRUE
),
claim_evidence_list AS (
  SELECT cluster_id, list(json_object('id', id, 'kb_path', kb_path, 'kb_snippet', kb_snippet,
                                      'source_updated_at', strftime(timezone('UTC', source_updated_at), '%Y-%m-%dT%H:%M:%SZ')) ORDER BY kb_path, id) AS evidence
  FROM claim_evidence WHERE cluster_id IN (SELECT cluster_id FROM claims) GROUP BY cluster_id
),
cited AS (
  SELECT c.cluster_id, f.model_id, f.url, f.hostname, f.citation_category, f.title
  FROM (SELECT DISTINCT execution_id, cluster_id FROM o WHERE NOT accurate) c
  JOIN citations f ON f.execution_id = c.execution_id
  WHERE f.category_id = $9 AND f.day BETWEEN CAST($10 AS DATE) AND CAST($11 AS DATE)
),
-- TRICKY: model-balanced: each model's share of its own citations, averaged over the models that cited anything for the
-- claim. The shares are summed in ascending order, so the double sum (and ties in the ranking) never depend on scan order.
per_model AS (
  SELECT cluster_id, model_id, url, count(*) / sum(count(*)) OVER (PARTITION BY cluster_id, model_id) AS share
  FROM cited GROUP BY cluster_id, model_id, url
),
sources AS (
  SELECT *, row_number() OVER (PARTITION BY cluster_id ORDER BY citation_share DESC, url) AS place
  FROM (
    SELECT s.cluster_id, s.url, 100 * s.total / m.models AS citation_share
    FROM (SELECT cluster_id, url, list_sum(list_sort(list(share))) AS total FROM per_model GROUP BY cluster_id, url) s
    JOIN (SELECT cluster_id, count(DISTINCT model_id) AS models FROM cited GROUP BY cluster_id) m USING (cluster_id)
  )
),
claim_sources AS (
  SELECT s.cluster_id, list(json_object('href', regexp_replace(s.url, '^[A-Za-z][A-Za-z0-9+.-]*://', ''), 'hostname', a.hostname,
      'citation_category', a.citation_category, 'domain_category', a.citation_category, 'snippet', a.title, 'citation_share', s.citation_share)
    ORDER BY s.place) AS citation_sources
  FROM sources s
  JOIN (
    SELECT url, min(hostname) AS hostname, min(citation_category) AS citation_category, min(title) AS title
    FROM cited WHERE url IN (SELECT url FROM sources WHERE place <= $12) GROUP BY url
  ) a USING (url)
  WHERE s.place <= $13
  GROUP BY s.cluster_id
),
claim_rows AS (
  SELECT c.*, cc.claim, json_object('cluster_id', c.cluster_id, 'claim', cc.claim, 'occurrence', c.occurrence, 'evidence', coalesce(ce.evidence, []), 'citation_sources', coalesce(cs.citation_sources, [])) AS claim_json
  FROM claims c
  JOIN claim_clusters cc ON cc.id = c.cluster_id
LEFT JOIN claim_evidence_list ce ON ce.cluster_id = c.cluster_id
LEFT JOIN claim_sources cs ON cs.cluster_id = c.cluster_id
),
rows AS MATERIALIZED (SELECT row_number() OVER (ORDER BY occurrence DESC, claim, cluster_id) AS unit, 0 AS seq, claim_json::VARCHAR AS row FROM claim_rows),
info AS (SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM "e" x JOIN models mo ON mo.id = x.model_id), []))),
page AS (SELECT unit, seq, row FROM rows WHERE unit > $14 AND unit <= $15)
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (SELECT coalesce(max(unit), 0) FROM rows),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(SELECT unit, seq, row FROM page)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","accuracy","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",10,10,0,3]
