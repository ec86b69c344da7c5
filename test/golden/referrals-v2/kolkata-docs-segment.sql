WITH traffic AS (
  SELECT f.ts, f."host", f."path", f."referral_source", f."referral_type", 1 AS visits, f.ts AS last_at FROM "referral_visits" f WHERE f.organization_id = $1 AND f.domain = $2 AND f.ts >= CAST($3 AS TIMESTAMPTZ) AND f.ts < CAST($4 AS TIMESTAMPTZ) AND COALESCE(f."referral_type" IN ($5, $6), FALSE) AND EXISTS (SELECT 1 FROM domain_views v WHERE v.id = $7 AND (v.host IS NULL OR v.host = f.host) AND (v.path_prefix IS NULL OR starts_with(f.path, v.path_prefix)))
),
grouped AS (SELECT CAST(date_trunc('month', CAST(timezone($8, f.ts) AS DATE)) AS DATE) AS "k0", f."path" AS "k1", CAST(sum(visits) AS BIGINT) AS "m0", epoch_ms(max(last_at)) // 1000 AS "m1" FROM traffic f GROUP BY "k0", "k1"),
labeled AS (SELECT g.*, strftime("g"."k0", '%Y-%m-%d') AS "d0", "g"."k1" AS "d1" FROM grouped g),
page_units AS (SELECT * FROM labeled WHERE TRUE)
SELECT "m0" AS "out_m0", "m1" AS "out_m1", CAST("d0" AS VARCHAR) AS "out_d0", CAST("d1" AS VARCHAR) AS "out_d1", (SELECT count(*) FROM page_units) AS head_total
FROM page_units
ORDER BY "m0" DESC NULLS LAST, "k0" ASC NULLS LAST, "d1" ASC NULLS LAST, "k1" ASC NULLS LAST LIMIT $9 OFFSET $10
-- params: ["00000000-0000-4000-8000-000000000001","example.com","2026-02-28T18:30:00.000Z","2026-07-01T18:30:00.000Z","referer","utm","00000000-0000-4000-8000-00000000019c","Asia/Kolkata",8,0]
