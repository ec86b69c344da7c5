WITH scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = $1
),
category_products AS (
  SELECT id, name, brand, rating, num_reviews, url, image_urls FROM products WHERE category_id = $2
),
scoped_results AS (
  SELECT f.execution_id, f.product_id, f.model_id, f.position
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
units AS (SELECT product_id, visibility_rank AS unit FROM window_scores)
SELECT 0 AS unit, 0 AS seq, (SELECT count(*) FROM units) AS head_total, (SELECT i FROM (SELECT coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM (SELECT DISTINCT model_id FROM "hit") x JOIN models mo ON mo.id = x.model_id), []) AS models) i) AS head_info
UNION ALL BY NAME
SELECT * FROM (SELECT u.unit, 0 AS seq, pr.name AS product_name, pr.brand AS product_brand, m.visibility_score AS "visibility_score", m.average_position AS "average_position", m.visibility_rank AS "visibility_rank", m.position1_percentage AS "position1_percentage", m.position2_percentage AS "position2_percentage", m.position3_percentage AS "position3_percentage", m.position_above3_percentage AS "position_above3_percentage", pr.rating AS "product_rating", pr.num_reviews AS "product_num_reviews"
FROM units u
JOIN window_scores m ON m.product_id = u.product_id
JOIN category_products pr ON pr.id = u.product_id
WHERE u.unit > $6 AND u.unit <= $7)
ORDER BY unit, seq
-- params: ["00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","00000000-0000-4000-8000-00000000000b","2026-03-01","2026-06-30",0,3]
