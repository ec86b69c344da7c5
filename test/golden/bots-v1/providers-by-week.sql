WITH traffic AS (
  SELECT CAST(timezone($1, f.ts) AS DATE) AS day, f."host", f."path", f."bot_name", f."bot_provider", f."bot_type", 1 AS visits, f.ts AS last_at
  FROM "bot_events" f WHERE f.organization_id = $2 AND f.domain = $3 AND f.ts >= CAST($4 AS TIMESTAMPTZ) AND f.ts < CAST($5 AS TIMESTAMPTZ) AND TRUE
),
grouped AS (SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k0", f."bot_provider" AS "k1", CAST(sum(visits) AS BIGINT) AS "m0", CAST(coalesce(sum(visits) FILTER (WHERE bot_type = 'ai_assistant'), 0) AS BIGINT) AS "m1", CAST(coalesce(sum(visits) FILTER (WHERE bot_type = 'index'), 0) AS BIGINT) AS "m2", CAST(coalesce(sum(visits) FILTER (WHERE bot_type = 'ai_training'), 0) AS BIGINT) AS "m3", epoch_ms(max(last_at)) // 1000 AS "m4" FROM traffic f GROUP BY "k0", "k1"),
labeled AS (SELECT g.*, strftime("g"."k0", '%Y-%m-%d') AS "d0", "g"."k1" AS "d1" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", "m2" AS "out_m2", "m3" AS "out_m3", "m4" AS "out_m4", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "k0" ASC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $6 OFFSET $7
-- params: ["America/New_York","00000000-0000-4000-8000-000000000001","example.com","2026-03-01T05:00:00.000Z","2026-12-01T05:00:00.000Z",8,0]
