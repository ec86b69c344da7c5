WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
category_products AS (
  SELECT id, name, brand, rating, num_reviews, url, image_urls FROM products WHERE category_id = $2
),
scoped_results AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.execution_id, f.product_id, f.model_id, f.position
  FROM shopping_results f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE) AND TRUE
),
hit AS (SELECT * FROM scoped_results WHERE product_id IN (SELECT id FROM category_products)),
window_counts AS (
  SELECT product_id, count(*) AS shown, sum(position) AS position_sum,
         count(*) FILTER (WHERE position = 1) AS at1, count(*) FILTER (WHERE position = 2) AS at2, count(*) FILTER (WHERE position = 3) AS at3, (SELECT count(DISTINCT execution_id) FROM scoped_results) AS executions FROM hit GROUP BY product_id
),
window_scores AS (SELECT *, row_number() OVER (ORDER BY visibility_score DESC, average_position ASC, name, product_id) AS visibility_rank
  FROM (SELECT c.*, pr.name, "shown" / "executions" AS "visibility_score", "position_sum" / "shown" AS "average_position", "at1" / "shown" AS "position1_percentage", "at2" / "shown" AS "position2_percentage", "at3" / "shown" AS "position3_percentage", ("shown" - "at1" - "at2" - "at3") / "shown" AS "position_above3_percentage" FROM "window_counts" c JOIN category_products pr ON pr.id = c.product_id)),
target_product AS (SELECT id, brand FROM category_products WHERE id = $6 OR name = $7),
candidates AS (
  SELECT w.product_id, w.visibility_rank, w.product_id IN (SELECT id FROM target_product) AS is_target,
         pr.brand IN (SELECT brand FROM target_product) AS same_brand
  FROM window_scores w JOIN category_products pr ON pr.id = w.product_id
  WHERE EXISTS (SELECT 1 FROM target_product)
),
units AS (
  SELECT product_id, row_number() OVER (ORDER BY is_target DESC, visibility_rank) AS unit
  FROM (SELECT *, row_number() OVER (PARTITION BY same_brand ORDER BY visibility_rank) AS place FROM candidates)
  WHERE is_target OR (NOT same_brand AND place <= $8)
)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM units) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "hit") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_products AS (SELECT u.product_id, u.unit FROM units u WHERE u.unit > $9 AND u.unit <= $10),
page_buckets AS (SELECT DISTINCT "k_date" FROM hit WHERE product_id IN (SELECT product_id FROM page_products)),
shown AS (
  SELECT "k_date", product_id, count(*) AS shown, sum(position) AS position_sum,
         count(*) FILTER (WHERE position = 1) AS at1, count(*) FILTER (WHERE position = 2) AS at2, count(*) FILTER (WHERE position = 3) AS at3
  FROM hit h SEMI JOIN page_buckets pk ON "h"."k_date" IS NOT DISTINCT FROM "pk"."k_date"
  GROUP BY ALL
),
bucket_counts AS (SELECT s.*, d.executions FROM shown s JOIN (SELECT "k_date", count(DISTINCT execution_id) AS executions FROM scoped_results x SEMI JOIN page_buckets pk ON "x"."k_date" IS NOT DISTINCT FROM "pk"."k_date" GROUP BY ALL) d ON "s"."k_date" IS NOT DISTINCT FROM "d"."k_date"),
bucket_scores AS (SELECT *, row_number() OVER (PARTITION BY "k_date" ORDER BY visibility_score DESC, average_position ASC, name, product_id) AS visibility_rank
  FROM (SELECT c.*, pr.name, "shown" / "executions" AS "visibility_score", "position_sum" / "shown" AS "average_position", "at1" / "shown" AS "position1_percentage", "at2" / "shown" AS "position2_percentage", "at3" / "shown" AS "position3_percentage", ("shown" - "at1" - "at2" - "at3") / "shown" AS "position_above3_percentage" FROM "bucket_counts" c JOIN category_products pr ON pr.id = c.product_id))
SELECT u.unit, row_number() OVER (PARTITION BY u.unit ORDER BY "m"."k_date") AS seq, pr.name AS product_name, pr.brand AS product_brand, "m"."k_date" AS k_date, m.visibility_score AS "visibility_score", m.visibility_rank AS "visibility_rank", m.position1_percentage AS "position1_percentage"
FROM bucket_scores m
JOIN page_products u ON u.product_id = m.product_id
JOIN category_products pr ON pr.id = m.product_id
)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-03-31","00000000-0000-4000-8000-00000000012f","00000000-0000-4000-8000-00000000012f",2,0,10]
