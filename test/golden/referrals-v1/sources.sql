WITH traffic AS (
  SELECT CAST(timezone($1, f.ts) AS DATE) AS day, f."host", f."path", f."referral_source", f."referral_type", 1 AS visits, f.ts AS last_at
  FROM "referral_visits" f WHERE f.organization_id = $2 AND f.domain = $3 AND f.ts >= CAST($4 AS TIMESTAMPTZ) AND f.ts < CAST($5 AS TIMESTAMPTZ) AND TRUE
),
grouped AS (SELECT f."referral_source" AS "k0", CAST(sum(visits) AS BIGINT) AS "m0", epoch_ms(max(last_at)) // 1000 AS "m1" FROM traffic f GROUP BY "k0"),
labeled AS (SELECT g.*, "g"."k0" AS "d0" FROM grouped g),
kept AS MATERIALIZED (SELECT * FROM labeled WHERE ("m0" >= $6))
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM kept) AS head_total, NULL AS head_info
UNION ALL BY NAME
SELECT * FROM (SELECT $7 + row_number() OVER (ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST) AS unit, 0 AS seq, "m0", "m1", CAST("d0" AS VARCHAR) AS "d0"
FROM (SELECT * FROM kept ORDER BY "m0" DESC NULLS LAST, "d0" ASC NULLS LAST, "k0" ASC NULLS LAST LIMIT $8 OFFSET $9))
ORDER BY unit, seq
-- params: ["America/New_York","00000000-0000-4000-8000-000000000001","example.com","2026-03-01T05:00:00.000Z","2026-06-01T04:00:00.000Z",5,0,8,0]
