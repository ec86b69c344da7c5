WITH traffic AS (
  SELECT f.ts, f."host", f."path", f."referral_source", f."referral_type", 1 AS visits, f.ts AS last_at FROM "referral_visits" f WHERE f.organization_id = $1 AND f.domain = $2 AND f.ts >= CAST($3 AS TIMESTAMPTZ) AND f.ts < CAST($4 AS TIMESTAMPTZ) AND TRUE
),
grouped AS (SELECT hour(timezone($5, f.ts)) AS "k0", CAST(sum(visits) AS BIGINT) AS "m0" FROM traffic f GROUP BY "k0"),
labeled AS (SELECT g.*, lpad(CAST("g"."k0" AS VARCHAR), 2, '0') AS "d0" FROM grouped g),
kept AS MATERIALIZED (SELECT * FROM labeled WHERE TRUE)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM kept) AS head_total, NULL AS head_info
UNION ALL BY NAME
SELECT * FROM (SELECT $6 + row_number() OVER (ORDER BY "k0" ASC NULLS LAST, "k0" ASC NULLS LAST) AS unit, 0 AS seq, "m0", CAST("d0" AS VARCHAR) AS "d0"
FROM (SELECT * FROM kept ORDER BY "k0" ASC NULLS LAST, "k0" ASC NULLS LAST LIMIT $7 OFFSET $8))
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-02-28T23:00:00.000Z","2026-12-01T00:00:00.000Z","Europe/Berlin",0,24,0]
