WITH traffic AS (
  SELECT f.day, f."host", f."path", f."bot_name", f."bot_provider", f."bot_type", f.visits, f.last_at
  FROM "rollup_traffic_daily_bot_events" f
  WHERE f.organization_id = $1 AND f.domain = $2 AND f.day >= CAST($3 AS DATE) AND f.day < CAST($4 AS DATE) AND COALESCE(f."bot_name" IN ($5, $6), FALSE)
),
grouped AS (SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k0", f."path" AS "k1", CAST(sum(visits) AS BIGINT) AS "m0", CAST(coalesce(sum(visits) FILTER (WHERE bot_type = 'ai_assistant'), 0) AS BIGINT) AS "m1", epoch_ms(max(last_at)) // 1000 AS "m2" FROM traffic f GROUP BY "k0", "k1"),
labeled AS (SELECT g.*, strftime("g"."k0", '%Y-%m-%d') AS "d0", "g"."k1" AS "d1" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $7 OFFSET $8
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-03-01","2026-12-01","GPTBot","ChatGPT-User",8,0]
