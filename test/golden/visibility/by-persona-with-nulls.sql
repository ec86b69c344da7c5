WITH visibility_prompts AS (
  SELECT id, topic_id, tag_ids FROM prompts
  WHERE category_id = $1 AND list_contains(analysis_types, 'visibility')
),
answers_by_key AS (
  SELECT f.persona_id AS "k_persona", f.model_id, count(*) AS n
  FROM executions f JOIN visibility_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $2 AND f.day BETWEEN CAST($3 AS DATE) AND CAST($4 AS DATE) AND TRUE
  GROUP BY ALL
),
mentions_by_key AS (
  SELECT f.persona_id AS "k_persona", f.asset_id, count(*) AS mentions, sum(f.position) AS position_sum
  FROM mentions f JOIN visibility_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $5 AND f.day BETWEEN CAST($6 AS DATE) AND CAST($7 AS DATE) AND TRUE
  GROUP BY ALL
),
scope_models AS (SELECT DISTINCT model_id FROM answers_by_key),
groups AS (
  SELECT "k_persona", sum(n) AS executions FROM answers_by_key
  GROUP BY "k_persona"
),
width AS (
  SELECT count(*) AS k FROM (SELECT id AS asset_id, name, is_owned FROM assets WHERE category_id = $8) r WHERE TRUE
),
ordinals AS (
  SELECT "g"."k_persona", g.executions, row_number() OVER (ORDER BY "d_persona"."name" NULLS LAST, "g"."k_persona" NULLS LAST) AS ordinal
  FROM groups g
  LEFT JOIN "personas" AS "d_persona" ON "d_persona".id = "g"."k_persona"
)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) * (SELECT k FROM width) FROM groups) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM scope_models e JOIN models mo ON mo.id = e.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_groups AS (
  SELECT o.* FROM ordinals o, width w
  WHERE w.k > 0 AND o.ordinal > ($9 // w.k) AND o.ordinal <= (($10 + w.k - 1) // w.k)
),
page_mentions AS (
  SELECT m.* FROM mentions_by_key m SEMI JOIN page_groups pg ON "m"."k_persona" IS NOT DISTINCT FROM "pg"."k_persona"
),
group_mentions AS (
  SELECT "k_persona", sum(mentions) AS total_mentions FROM page_mentions GROUP BY "k_persona"
),
scored AS (
  SELECT "pg"."k_persona" AS "k_persona", pg.ordinal, a.id AS asset_id, a.name, a.is_owned, pg.executions,
         coalesce(pm.mentions, 0) AS mentions, pm.position_sum, coalesce(t.total_mentions, 0) AS total_mentions
  FROM page_groups pg
  CROSS JOIN (SELECT id, name, is_owned FROM assets WHERE category_id = $11) a
  LEFT JOIN page_mentions pm ON pm.asset_id = a.id AND "pm"."k_persona" IS NOT DISTINCT FROM "pg"."k_persona"
  LEFT JOIN group_mentions t ON "t"."k_persona" IS NOT DISTINCT FROM "pg"."k_persona"
),
ranked AS (
  SELECT *, row_number() OVER (ORDER BY ordinal, "visibility_score" DESC NULLS LAST, name, asset_id) - (ordinal - (SELECT min(ordinal) FROM page_groups)) * (SELECT count(*) FROM assets WHERE category_id = $12) AS rank
  FROM (SELECT *, mentions / NULLIF(executions, 0) AS "visibility_score", coalesce(mentions / NULLIF(total_mentions, 0), 0.0) AS "share_of_voice", position_sum / NULLIF(mentions, 0) AS "average_position" FROM scored)
),
built AS (
  SELECT (r.ordinal - 1) * w.k + r.rank AS unit, r.*
  FROM ranked r CROSS JOIN width w
  WHERE TRUE
)
SELECT r.unit, 0 AS seq, "r"."k_persona" AS "k_persona", "d_persona"."name" AS "n_persona", r.name AS asset_name, r.is_owned AS asset_owned, r.rank,
       r."visibility_score"
FROM built r
LEFT JOIN "personas" AS "d_persona" ON "d_persona".id = "r"."k_persona"
WHERE r.unit > $13 AND r.unit <= $14)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-11-30","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-11-30","00000000-0000-4000-8000-00000000000b",0,10,"00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b",0,10]
