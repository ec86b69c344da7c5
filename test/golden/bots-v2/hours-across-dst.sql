WITH traffic AS (
  SELECT f.ts, f."host", f."path", f."bot_name", f."bot_provider", f."bot_type", 1 AS visits, f.ts AS last_at FROM "bot_events" f WHERE f.organization_id = $1 AND f.domain = $2 AND f.ts >= CAST($3 AS TIMESTAMPTZ) AND f.ts < CAST($4 AS TIMESTAMPTZ) AND NOT (((COALESCE(contains(f."bot_name", $5), FALSE)) OR (COALESCE(contains(f."bot_name", $6), FALSE))))
),
grouped AS (SELECT date_trunc('hour', f.ts) AS "k0", f."bot_type" AS "k1", CAST(sum(visits) AS BIGINT) AS "m0", epoch_ms(max(last_at)) // 1000 AS "m1" FROM traffic f GROUP BY "k0", "k1"),
labeled AS (SELECT g.*, "g"."k1" AS "d1" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", CAST(strftime(timezone($7, ("k0" + INTERVAL 3599 SECOND)) - INTERVAL 3599 SECOND, '%Y-%m-%dT%H:%M:%S') || CASE WHEN CAST(epoch(timezone($8, ("k0" + INTERVAL 3599 SECOND))) - epoch(("k0" + INTERVAL 3599 SECOND)) AS INTEGER) < 0 THEN '-' ELSE '+' END || lpad(CAST((abs(CAST(epoch(timezone($9, ("k0" + INTERVAL 3599 SECOND))) - epoch(("k0" + INTERVAL 3599 SECOND)) AS INTEGER)) // 3600) AS VARCHAR), 2, '0') || ':' || lpad(CAST((abs(CAST(epoch(timezone($10, ("k0" + INTERVAL 3599 SECOND))) - epoch(("k0" + INTERVAL 3599 SECOND)) AS INTEGER)) % 3600 // 60) AS VARCHAR), 2, '0') AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM (SELECT * FROM page_units ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $11 OFFSET $12) page_rows
ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-03-08T05:00:00.000Z","2026-03-08T09:00:00.000Z","Claude","Operator","UTC","UTC","UTC","UTC",8,0]
