WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
category_products AS (
  SELECT id, name, brand, rating, num_reviews, url, image_urls FROM products WHERE category_id = $2
),
scoped_results AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.answers FROM "rollup_shopping_daily_answers" f WHERE f.category_id = $3 AND f.day BETWEEN CAST($4 AS DATE) AND CAST($5 AS DATE)
),
hit AS (
  SELECT CAST(date_trunc('week', f.day) AS DATE) AS "k_date", f.product_id, f.model_id, f.shown AS w_shown, f.position_sum AS w_position, f.at1 AS w_at1, f.at2 AS w_at2, f.at3 AS w_at3
  FROM "rollup_shopping_daily_results" f
  WHERE f.category_id = $6 AND f.day BETWEEN CAST($7 AS DATE) AND CAST($8 AS DATE) AND f.product_id IN (SELECT id FROM category_products)
),
window_counts AS (
  SELECT product_id, CAST(sum(w_shown) AS BIGINT) AS shown, sum(w_position) AS position_sum,
         CAST(sum(w_at1) AS BIGINT) AS at1, CAST(sum(w_at2) AS BIGINT) AS at2, CAST(sum(w_at3) AS BIGINT) AS at3, (SELECT CAST(sum(answers) AS BIGINT) FROM scoped_results) AS executions FROM hit GROUP BY product_id
),
window_scores AS (SELECT *, row_number() OVER (ORDER BY visibility_score DESC, average_position ASC, name, product_id) AS visibility_rank
  FROM (SELECT c.*, pr.name, "shown" / "executions" AS "visibility_score", "position_sum" / "shown" AS "average_position", "at1" / "shown" AS "position1_percentage", "at2" / "shown" AS "position2_percentage", "at3" / "shown" AS "position3_percentage", ("shown" - "at1" - "at2" - "at3") / "shown" AS "position_above3_percentage" FROM "window_counts" c JOIN category_products pr ON pr.id = c.product_id)),
units AS (SELECT product_id, visibility_rank AS unit FROM window_scores)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM units) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "hit") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (WITH page_products AS (SELECT u.product_id, u.unit FROM units u WHERE u.unit > $9 AND u.unit <= $10),
page_buckets AS (SELECT DISTINCT "k_date" FROM hit WHERE product_id IN (SELECT product_id FROM page_products)),
shown AS (
  SELECT "k_date", product_id, CAST(sum(w_shown) AS BIGINT) AS shown, sum(w_position) AS position_sum,
         CAST(sum(w_at1) AS BIGINT) AS at1, CAST(sum(w_at2) AS BIGINT) AS at2, CAST(sum(w_at3) AS BIGINT) AS at3
  FROM hit h SEMI JOIN page_buckets pk ON "h"."k_date" IS NOT DISTINCT FROM "pk"."k_date"
  GROUP BY ALL
),
bucket_counts AS (SELECT s.*, d.executions FROM shown s JOIN (SELECT "k_date", CAST(sum(answers) AS BIGINT) AS executions FROM scoped_results x SEMI JOIN page_buckets pk ON "x"."k_date" IS NOT DISTINCT FROM "pk"."k_date" GROUP BY ALL) d ON "s"."k_date" IS NOT DISTINCT FROM "d"."k_date"),
bucket_scores AS (SELECT *, row_number() OVER (PARTITION BY "k_date" ORDER BY visibility_score DESC, average_position ASC, name, product_id) AS visibility_rank
  FROM (SELECT c.*, pr.name, "shown" / "executions" AS "visibility_score", "position_sum" / "shown" AS "average_position", "at1" / "shown" AS "position1_percentage", "at2" / "shown" AS "position2_percentage", "at3" / "shown" AS "position3_percentage", ("shown" - "at1" - "at2" - "at3") / "shown" AS "position_above3_percentage" FROM "bucket_counts" c JOIN category_products pr ON pr.id = c.product_id))
SELECT u.unit, row_number() OVER (PARTITION BY u.unit ORDER BY "m"."k_date") AS seq, pr.name AS product_name, pr.brand AS product_brand, "m"."k_date" AS k_date, m.visibility_score AS "visibility_score", m.average_position AS "average_position", m.visibility_rank AS "visibility_rank", m.position1_percentage AS "position1_percentage", m.position2_percentage AS "position2_percentage", m.position3_percentage AS "position3_percentage", m.position_above3_percentage AS "position_above3_percentage", pr.rating AS "product_rating", pr.num_reviews AS "product_num_reviews"
FROM bucket_scores m
JOIN page_products u ON u.product_id = m.product_id
JOIN category_products pr ON pr.id = m.product_id
)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31","00000000-0000-4000-8000-00000000000b","2026-02-20","2026-12-31",0,5]
