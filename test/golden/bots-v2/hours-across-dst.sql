WITH traffic AS (
  SELECT f.ts, f."host", f."path", f."bot_name", f."bot_provider", f."bot_type", 1 AS visits, f.ts AS last_at FROM "bot_events" f WHERE f.organization_id = $1 AND f.domain = $2 AND f.ts >= CAST($3 AS TIMESTAMPTZ) AND f.ts < CAST($4 AS TIMESTAMPTZ) AND NOT (((COALESCE(contains(f."bot_name", $5), FALSE)) OR (COALESCE(contains(f."bot_name", $6), FALSE))))
),
grouped AS (SELECT date_trunc('hour', f.ts) AS "k0", f."bot_type" AS "k1", CAST(sum(visits) AS BIGINT) AS "m0", epoch_ms(max(last_at)) // 1000 AS "m1" FROM traffic f GROUP BY "k0", "k1"),
labeled AS (SELECT g.*, strftime(timezone($7, ("g"."k0" + INTERVAL 3599 SECOND)) - INTERVAL 3599 SECOND, '%Y-%m-%dT%H:%M:%S') || CASE WHEN CAST(epoch(timezone($8, ("g"."k0" + INTERVAL 3599 SECOND))) - epoch(("g"."k0" + INTERVAL 3599 SECOND)) AS INTEGER) < 0 THEN '-' ELSE '+' END || lpad(CAST((abs(CAST(epoch(timezone($9, ("g"."k0" + INTERVAL 3599 SECOND))) - epoch(("g"."k0" + INTERVAL 3599 SECOND)) AS INTEGER)) // 3600) AS VARCHAR), 2, '0') || ':' || lpad(CAST((abs(CAST(epoch(timezone($10, ("g"."k0" + INTERVAL 3599 SECOND))) - epoch(("g"."k0" + INTERVAL 3599 SECOND)) AS INTEGER)) % 3600 // 60) AS VARCHAR), 2, '0') AS "d0", "g"."k1" AS "d1" FROM grouped g),
kept AS MATERIALIZED (SELECT * FROM labeled WHERE TRUE)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM kept) AS head_total, NULL AS head_info
UNION ALL BY NAME
SELECT * FROM (SELECT $11 + row_number() OVER (ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST) AS unit, 0 AS seq, "m0", "m1", CAST("d0" AS VARCHAR) AS "d0", CAST("d1" AS VARCHAR) AS "d1"
FROM (SELECT * FROM kept ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $12 OFFSET $13))
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-03-08T05:00:00.000Z","2026-03-08T09:00:00.000Z","Claude","Operator","UTC","UTC","UTC","UTC",0,8,0]
