WITH traffic AS (
  SELECT f.ts, f."host", f."path", f."referral_source", f."referral_type", 1 AS visits, f.ts AS last_at FROM "referral_visits" f WHERE f.organization_id = $1 AND f.domain = $2 AND f.ts >= CAST($3 AS TIMESTAMPTZ) AND f.ts < CAST($4 AS TIMESTAMPTZ) AND TRUE
),
grouped AS (SELECT hour(timezone($5, f.ts)) AS "k0", CAST(sum(visits) AS BIGINT) AS "m0" FROM traffic f GROUP BY "k0"),
labeled AS (SELECT g.*, lpad(CAST("g"."k0" AS VARCHAR), 2, '0') AS "d0" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", CAST("d0" AS VARCHAR) AS "out_d0", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "k0" ASC NULLS LAST, "k0" ASC NULLS LAST LIMIT $6 OFFSET $7
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-02-28T23:00:00.000Z","2026-12-01T00:00:00.000Z","Europe/Berlin",24,0]
