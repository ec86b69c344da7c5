WITH traffic AS (
  SELECT CAST(timezone($1, f.ts) AS DATE) AS day, f."host", f."path", f."referral_source", f."referral_type", 1 AS visits, f.ts AS last_at
  FROM "referral_visits" f WHERE f.organization_id = $2 AND f.domain = $3 AND f.ts >= CAST($4 AS TIMESTAMPTZ) AND f.ts < CAST($5 AS TIMESTAMPTZ) AND TRUE
),
grouped AS (SELECT f."referral_source" AS "k0", CAST(sum(visits) AS BIGINT) AS "m0", epoch_ms(max(last_at)) // 1000 AS "m1" FROM traffic f GROUP BY "k0"),
labeled AS (SELECT g.*, "g"."k0" AS "d0" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE ("m0" >= $6))
SELECT "m0" AS "out_m0", "m1" AS "out_m1", CAST("d0" AS VARCHAR) AS "out_d0", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST LIMIT $7 OFFSET $8
-- params: ["America/New_York","00000000-0000-4000-8000-000000000001","example.com","2026-03-01T05:00:00.000Z","2026-06-01T04:00:00.000Z",5,8,0]
