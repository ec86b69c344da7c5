WITH traffic AS (
  SELECT f.day, f."host", f."path", f."bot_name", f."bot_provider", f."bot_type", f.visits, f.last_at
  FROM "rollup_traffic_daily_bot_events" f
  WHERE f.organization_id = $1 AND f.domain = $2 AND f.day >= CAST($3 AS DATE) AND f.day < CAST($4 AS DATE) AND COALESCE(f."bot_name" IN ($5, $6), FALSE)
),
grouped AS (SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k0", f."path" AS "k1", CAST(sum(visits) AS BIGINT) AS "m0", CAST(coalesce(sum(visits) FILTER (WHERE bot_type = 'ai_assistant'), 0) AS BIGINT) AS "m1", epoch_ms(max(last_at)) // 1000 AS "m2" FROM traffic f GROUP BY "k0", "k1"),
labeled AS (SELECT g.*, strftime("g"."k0", '%Y-%m-%d') AS "d0", "g"."k1" AS "d1" FROM grouped g),
kept AS MATERIALIZED (SELECT * FROM labeled WHERE TRUE)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM kept) AS head_total, NULL AS head_info
UNION ALL BY NAME
SELECT * FROM (SELECT $7 + row_number() OVER (ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST) AS unit, 0 AS seq, "m0", "m1", "m2", CAST("d0" AS VARCHAR) AS "d0", CAST("d1" AS VARCHAR) AS "d1"
FROM (SELECT * FROM kept ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $8 OFFSET $9))
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-03-01","2026-12-01","GPTBot","ChatGPT-User",0,8,0]
