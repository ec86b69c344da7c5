/**
 * Answer facts. Executions come from slots (prompt × platform × region × day) kept with a probability that
 * makes scale 1 about one million executions a year. Every other fact derives from one execution and is
 * built one category at a time ($cat), so memory stays bounded at large scales.
 */
/** The share of execution slots drawn, so that a year holds about `scale` million executions. */
export const executionShareSql = `SET VARIABLE exec_p = least(1.0, 2740 * getvariable('scale') * getvariable('window_days') / (
     SELECT sum(CASE WHEN p.status = 'active' THEN getvariable('window_days') ELSE (DATE '2026-06-01' - getvariable('window_start')::DATE) END)
     FROM prompts p JOIN g_prompt_model USING (cat_idx, prompt_idx) JOIN g_prompt_region USING (cat_idx, prompt_idx)))`;

/** The slots (prompt × model × region × day) drawn as executions, those of the prompts `where` keeps. */
const keptSlots = (where: string) => `WITH slots AS (
     SELECT p.cat_idx, p.prompt_idx, pm.model_idx, pr.region_idx, d.day_idx, d.day, p.persona_is,
            (((p.cat_idx::BIGINT * 100000 + p.prompt_idx) * 16 + pm.model_idx) * 16 + pr.region_idx) AS slot
     FROM prompts p
     JOIN g_prompt_model pm USING (cat_idx, prompt_idx)
     JOIN g_prompt_region pr USING (cat_idx, prompt_idx)
     CROSS JOIN g_day d
     WHERE (p.status = 'active' OR d.day < DATE '2026-06-01') AND ${where}
   ), kept AS (
     SELECT *, slot * 1000 + day_idx AS ekey FROM slots WHERE rnd('exec', slot, day_idx) < getvariable('exec_p')
   )`;

/** How many executions every category draws, counted without keeping them. */
export const executionCountSql = `${keptSlots('TRUE')} SELECT count(*) FROM kept`;

// TRICKY: local times are drawn over the whole ET day, so the 02:00 gap of 2026-03-08 and the repeated
// 01:00 hour of 2026-11-01 both occur; day is then recomputed from the instant, never assumed.
// A job's executions are drawn when it is written: a category's days [$d0, $d1), since all of them at scale 100
// (113 M), or even one category's (12.5 M) on each connection, outgrow the memory limit.
const jobExecutions = `${keptSlots('p.cat_idx = $cat AND d.day_idx >= $d0 AND d.day_idx < $d1')}
   SELECT k.cat_idx, k.prompt_idx, k.model_idx, k.region_idx, k.ekey,
          CASE WHEN len(k.persona_is) = 0 THEN NULL ELSE k.persona_is[1 + floor(rnd('persona', k.ekey, 0) * len(k.persona_is))::INT] END AS persona_i,
          timezone('America/New_York', k.day::TIMESTAMP + to_seconds(floor(rnd('time', k.ekey, 0) * 86400)::BIGINT)) AS executed_at,
          CAST(timezone('America/New_York', executed_at) AS DATE) AS day,
          rnd('search', k.ekey, 0) < m.search_rate AS search_triggered
   FROM kept k JOIN models m USING (model_idx)`;

// TRICKY: ordering the brands a row may name by u^(1/weight) is weighted sampling without replacement, so
// popular brands tend to be named first without any brand ever being named twice. The list holds the ranks in
// the order the answer names them: a sort of 20 values inside each row, never a sort across the category.
const mentionRanks = `list_transform(list_sort(list_transform(
    list_filter(range(1, len(getvariable('c_asset')) + 1),
                r -> rnd('mention', e.ekey, r) < 0.75 * pow(r, -0.7) * (0.6 + 0.8 * rnd('model_affinity', e.model_idx, r))),
    r -> {'key': -pow(rnd('pos', e.ekey, r), 1.0 / getvariable('c_asset_weight')[r]), 'rank': r})), s -> s.rank::INT)`;

// `ord` ranks the job's executions in the contract's file order (executed_at, then id), and the table is kept in
// that order, so a fact drawn from it by scans and unnests alone is already in file order; the others sort on
// two small integers instead of a text id, a timestamp and a UUID. A job's days are whole ET days and every
// execution falls in its own ET day, so the parts of one category follow each other in that order too.
export const contextSql = `
  CREATE OR REPLACE TEMP TABLE g_ctx AS
  SELECT e.ekey, md5(concat_ws(':', getvariable('seed'), 'exec', e.ekey))::UUID AS execution_id,
         e.executed_at, e.day, e.search_triggered, e.cat_idx, e.prompt_idx, p.id AS prompt_id, e.model_idx, e.region_idx, e.persona_i,
         p.topic_i, p.aud_i, p.has_sentiment, p.has_accuracy, p.shopping_intent, m.shopping AS shopping_model,
         ${mentionRanks} AS m_ranks,
         row_number() OVER (ORDER BY e.executed_at, execution_id)::INT AS ord
  FROM (${jobExecutions}) e
  JOIN prompts p USING (cat_idx, prompt_idx)
  JOIN models m USING (model_idx)
  ORDER BY ord`;

/** The text columns every fact shares, as lists indexed by the execution's integer coordinates. */
export const categoryVariablesSql = [
  `SET VARIABLE c_org = (SELECT organization_id FROM categories WHERE cat_idx = $cat)`,
  `SET VARIABLE c_id = (SELECT id FROM categories WHERE cat_idx = $cat)`,
  `SET VARIABLE c_noun = (SELECT noun FROM categories WHERE cat_idx = $cat)`,
  `SET VARIABLE c_model = (SELECT list(id ORDER BY model_idx) FROM models)`,
  `SET VARIABLE c_region = (SELECT list(id ORDER BY region_idx) FROM regions)`,
  `SET VARIABLE c_persona = (SELECT list(id ORDER BY i) FROM personas WHERE cat_idx = $cat)`,
  `SET VARIABLE c_asset = (SELECT list(id ORDER BY rank) FROM assets WHERE cat_idx = $cat)`,
  `SET VARIABLE c_asset_name = (SELECT list(name ORDER BY rank) FROM assets WHERE cat_idx = $cat)`,
  `SET VARIABLE c_asset_weight = (SELECT list(weight ORDER BY rank) FROM assets WHERE cat_idx = $cat)`,
  `SET VARIABLE c_audience = (SELECT list(name ORDER BY i) FROM g_audience WHERE cat_idx = $cat)`,
  `SET VARIABLE c_topic = (SELECT list(lower(name) ORDER BY i) FROM topics WHERE cat_idx = $cat)`,
  `SET VARIABLE c_product = (SELECT list(id ORDER BY product_i) FROM products WHERE cat_idx = $cat)`,
  `SET VARIABLE c_product_weight = (SELECT list(weight ORDER BY product_i) FROM products WHERE cat_idx = $cat)`,
  `SET VARIABLE c_asset_positivity = (SELECT list(positivity ORDER BY rank) FROM assets WHERE cat_idx = $cat)`,
  `SET VARIABLE c_asset_order = (SELECT list(o ORDER BY rank) FROM (SELECT rank, row_number() OVER (ORDER BY id) AS o FROM assets WHERE cat_idx = $cat))`,
  `SET VARIABLE c_n_themes = (SELECT count(*)::INT FROM themes WHERE cat_idx = $cat)`,
  // A claim's place in these lists is 1 + 3 × its theme + its verdict (three verdicts a theme).
  `SET VARIABLE c_claim = (SELECT list(id ORDER BY theme_i, claim_i) FROM sentiment_claims WHERE cat_idx = $cat)`,
  `SET VARIABLE c_claim_theme = (SELECT list(theme_id ORDER BY theme_i, claim_i) FROM sentiment_claims WHERE cat_idx = $cat)`,
  `SET VARIABLE c_claim_order = (SELECT list(o ORDER BY theme_i, claim_i) FROM (SELECT theme_i, claim_i, row_number() OVER (ORDER BY id) AS o FROM sentiment_claims WHERE cat_idx = $cat))`,
  `SET VARIABLE c_n_domains = (SELECT any_value(n_domains) FROM g_domain WHERE cat_idx = $cat)`,
  `SET VARIABLE c_domain = (SELECT list(root_domain ORDER BY d_rank) FROM g_domain WHERE cat_idx = $cat)`,
  `SET VARIABLE c_domain_category = (SELECT list(citation_category ORDER BY d_rank) FROM g_domain WHERE cat_idx = $cat)`,
  ...['id', 'title', 'handle', 'url'].map(
    (c) =>
      `SET VARIABLE c_channel_${c} = (SELECT list(channel_${c} ORDER BY ch_i) FROM g_channel WHERE cat_idx = $cat)`,
  ),
  ...['id', 'title', 'category'].map(
    (c) => `SET VARIABLE c_video_${c} = (SELECT list(video_${c} ORDER BY ch_i, v_i) FROM g_video WHERE cat_idx = $cat)`,
  ),
];

/**
 * The execution columns a fact's rows carry: integers and fixed-width values, cheap to sort, and the prompt's id.
 * A category's prompts grow with the scale (9,000 at scale 100), and indexing a list costs with its length, so the
 * id is joined once per execution rather than looked up per row.
 */
const context = 'x.execution_id, x.executed_at, x.day, x.prompt_id, x.model_idx, x.region_idx, x.persona_i, x.ord';

/** The execution's text columns, looked up from a fact's sorted rows (g_rows) without a join. */
export const contextLookups = `getvariable('c_org') AS organization_id, getvariable('c_id') AS category_id,
  getvariable('c_model')[model_idx + 1] AS model_id,
  getvariable('c_region')[region_idx + 1] AS region_id, getvariable('c_persona')[persona_i + 1] AS persona_id`;

export interface FactTable {
  /** The rows, with the context columns and whatever the file needs that the lookups cannot give. */
  readonly rows: string;
  /**
   * Their order: `ord` stands for (category_id, executed_at, execution_id), since a part holds one category,
   * and the columns after it make the order total, so it equals the contract's sort key order. Absent when the
   * rows come from g_ctx through order-preserving clauses only (SELECT, WHERE, unnest), already in that order.
   */
  readonly order?: string;
  /**
   * The file's rows from g_rows (the rows in order); the default adds the context lookups. Sorted rows are a
   * temp table g_rows; rows already in order are written straight from g_ctx, g_rows naming a CTE of them.
   */
  readonly write?: string;
}

// Temp tables keep integer coordinates only: materialising the text columns once per temp table cost more
// than looking them up from the category's lists when the file is written.
const mentions: FactTable = {
  rows: `SELECT ${context}, unnest(x.m_ranks) AS rank, generate_subscripts(x.m_ranks, 1)::INT AS position FROM g_ctx x`,
  write: `SELECT *, ${contextLookups}, getvariable('c_asset')[rank] AS asset_id FROM g_rows`,
};

const executionsSql = `
  SELECT ${context}, x.execution_id AS id, x.search_triggered,
         'For ' || getvariable('c_audience')[x.aud_i + 1] || ', ' ||
           coalesce('the most recommended options are ' ||
                    CASE WHEN len(x.m_ranks) > 0 THEN array_to_string(list_transform(x.m_ranks, r -> getvariable('c_asset_name')[r]), ', ') END ||
                    '.', 'no single brand stands out.') ||
           ' Compare reviews and prices before you decide.' AS response
  FROM g_ctx x`;

export const domainPoolSql = `
  CREATE TABLE g_domain AS
  WITH pool AS (
    SELECT a.cat_idx, a.site AS root_domain, CASE WHEN a.is_owned THEN 'owned' ELSE 'competition' END AS citation_category,
           CASE WHEN a.is_owned THEN 3.0 ELSE 3.0 * a.weight END AS weight
    FROM assets a
    UNION ALL
    SELECT a.cat_idx, unnest(a.alternate_domains), 'owned', 1.0 FROM assets a WHERE a.is_owned
    UNION ALL
    SELECT c.cat_idx, s.name, s.kind, s.weight FROM categories c CROSS JOIN g_site s
  )
  SELECT *, (row_number() OVER (PARTITION BY cat_idx ORDER BY weight * (0.5 + rnd('domain_rank', cat_idx, root_domain)) DESC, root_domain) - 1)::INT AS d_rank,
         count(*) OVER (PARTITION BY cat_idx)::INT AS n_domains
  FROM pool`;

export const channelPoolSql = `
  CREATE TABLE g_channel AS
  SELECT c.cat_idx, ch.i::INT AS ch_i,
         'UC' || substr(md5(concat_ws(':', getvariable('seed'), 'channel', c.cat_idx, ch.i)), 1, 22) AS channel_id,
         -- TRICKY: syllables run in the opposite order to brand names, so no channel title contains another tenant's brand.
         upper(left(getvariable('l_syllable_b')[1 + ((c.cat_idx * 40 + ch.i) // 26) % 15], 1)) || substr(getvariable('l_syllable_b')[1 + ((c.cat_idx * 40 + ch.i) // 26) % 15], 2)
           || lower(getvariable('l_syllable_a')[1 + (c.cat_idx * 40 + ch.i) % 26])
           || ' ' || split_part(c.name, ' ', 1) || ' ' || getvariable('l_channel_noun')[1 + ch.i % 8] AS channel_title,
         '@' || lower(replace(channel_title, ' ', '')) AS channel_handle,
         'https://www.youtube.com/' || channel_handle AS channel_url
  FROM categories c CROSS JOIN range(40) ch(i)`;

export const videoPoolSql = `
  CREATE TABLE g_video AS
  SELECT ch.cat_idx, ch.ch_i, v.i::INT AS v_i,
         substr(replace(to_base64(unhex(md5(concat_ws(':', getvariable('seed'), 'video', ch.cat_idx, ch.ch_i, v.i)))), '/', '_'), 1, 11) AS video_id,
         ch.channel_title || ': ' || c.noun || ' review #' || (v.i + 1) AS video_title,
         CASE WHEN rnd('video_cat', ch.cat_idx * 100 + ch.ch_i, v.i) < 0.08 THEN NULL
              ELSE getvariable('l_video_category')[1 + floor(rnd('video_cat2', ch.cat_idx * 100 + ch.ch_i, v.i) * 7)::INT] END AS video_category
  FROM g_channel ch JOIN categories c USING (cat_idx) CROSS JOIN range(15) v(i)`;

// TRICKY: the citations are a temp table, sorted although they are drawn in order. Inlined, the write's layers drew
// them again (20.2 s against 9.4 at scale 1); filled in parallel without a sort, the table's row groups, and so the
// part's bytes, changed from run to run (7 of 90 parts at scale 100).
const citations: FactTable = {
  order: 'ord, k',
  rows: `
    WITH drawn AS (
      SELECT ${context}, x.ekey, x.cat_idx, unnest(range(floor(pow(rnd('n_cit', x.ekey, 0), 1.3) * 13)::INT)) AS k FROM g_ctx x
    ), p AS (
      SELECT *, floor(getvariable('c_n_domains') * pow(rnd('cit_domain', ekey, k), 2.2))::INT AS d_rank,
             floor(25 * pow(rnd('cit_page', ekey, k), 2.0))::INT AS page,
             rnd('yt_type', ekey, k) AS yt_u,
             floor(40 * pow(rnd('yt_channel', ekey, k), 1.8))::INT AS ch_i,
             floor(15 * pow(rnd('yt_video', ekey, k), 1.5))::INT AS v_i
      FROM drawn
    )
    SELECT * EXCLUDE (ekey, yt_u),
           CASE WHEN getvariable('c_domain')[d_rank + 1] <> 'youtube.com' THEN NULL
                WHEN yt_u < 0.55 THEN 'video' WHEN yt_u < 0.70 THEN 'short' WHEN yt_u < 0.82 THEN 'channel'
                WHEN yt_u < 0.90 THEN 'playlist' ELSE 'other' END AS source_type
    FROM p`,
  // TRICKY: each layer computes its columns once; an alias read in its own SELECT is expanded, computed again.
  write: `
    WITH t AS (
      SELECT *, getvariable('c_domain')[d_rank + 1] AS root_domain, getvariable('c_domain_category')[d_rank + 1] AS citation_category,
             getvariable('c_noun') AS noun, (k + 1)::INT AS position,
             CASE WHEN source_type IN ('video', 'short', 'channel', 'playlist') THEN ch_i + 1 END AS ci,
             CASE WHEN source_type IN ('video', 'short') THEN ch_i * 15 + v_i + 1 END AS vi
      FROM g_rows
    ), u AS (
      SELECT *, getvariable('c_channel_id')[ci] AS channel_id, getvariable('c_channel_title')[ci] AS channel_title,
             getvariable('c_channel_handle')[ci] AS channel_handle, getvariable('c_channel_url')[ci] AS channel_url,
             getvariable('c_video_id')[vi] AS video_id, getvariable('c_video_title')[vi] AS video_title,
             getvariable('c_video_category')[vi] AS video_category
      FROM t
    ), w AS (
      SELECT *, CASE WHEN source_type IS NOT NULL THEN 'www.youtube.com'
                     WHEN page % 5 = 4 THEN 'blog.' || root_domain ELSE 'www.' || root_domain END AS hostname,
                CASE source_type
                     WHEN 'video' THEN '/watch?v=' || video_id
                     WHEN 'short' THEN '/shorts/' || video_id
                     WHEN 'channel' THEN '/' || channel_handle
                     WHEN 'playlist' THEN '/playlist?list=PL' || substr(md5(channel_id || page), 1, 16)
                     WHEN 'other' THEN '/results?search_query=' || replace(noun, ' ', '+')
                     ELSE '/guides/' || replace(lower(noun), ' ', '-') || '-' || (page + 1) END AS path
      FROM u
    )
    SELECT *, ${contextLookups}, 'https://' || hostname || path AS url,
           CASE source_type
                WHEN 'video' THEN video_title WHEN 'short' THEN video_title
                WHEN 'channel' THEN channel_title WHEN 'playlist' THEN channel_title || ' playlist'
                WHEN 'other' THEN 'YouTube search: ' || noun
                ELSE 'Guide to ' || noun || ' part ' || (page + 1) || ' | ' || root_domain END AS title
    FROM w`,
};

// Each job adds the distinct URLs of the citations part it wrote, read back from the file (one column, mostly
// dictionary pages); the analyses are drawn once from the distinct URLs of every job, so how a category is cut
// into jobs does not change them.
export const pageUrlsTableSql = `CREATE TABLE g_page_urls (organization_id VARCHAR, category_id VARCHAR, cat_idx INT, url VARCHAR)`;

export const pageUrlsSql = `
  INSERT INTO g_page_urls
  SELECT DISTINCT organization_id, category_id, $cat::INT AS cat_idx, url FROM read_parquet($part)`;

export const pageAnalysesSql = `
  WITH urls AS (SELECT DISTINCT * FROM g_page_urls),
  kept AS (SELECT *, 1 + floor(rnd('pa_n', cat_idx, url) * 3)::INT AS n FROM urls WHERE rnd('pa', cat_idx, url) < 0.7),
  k AS (SELECT *, unnest(range(n)) AS k FROM kept)
  SELECT organization_id, category_id, url,
         timezone('UTC', getvariable('window_start')::DATE::TIMESTAMP + to_minutes(floor(rnd('pa_t', url, k) * getvariable('window_days') * 1440)::BIGINT)) AS analyzed_at,
         rnd('pa_m', url, k) < 0.4 AS mentioned
  FROM k`;

// Sorted on integers: each brand's and each claim's place in the order of their ids, looked up when written.
const sentiments: FactTable = {
  rows: `
    WITH m AS (
      SELECT * FROM (SELECT ${context}, x.ekey, unnest(x.m_ranks) AS rank FROM g_ctx x WHERE x.has_sentiment)
      WHERE rnd('sent', ekey, rank) < 0.6
    ), k AS (
      SELECT *, unnest(range(1 + (rnd('sent_n', ekey, rank) < 0.3)::INT)) AS k FROM m
    ), picked AS (
      SELECT *, 1 + 3 * ((floor(rnd('sent_theme', ekey, rank) * getvariable('c_n_themes'))::INT + k) % getvariable('c_n_themes'))
                  + floor(rnd('sent_claim', ekey, rank * 10 + k) * 3)::INT AS claim_j
      FROM k
    )
    SELECT * EXCLUDE (ekey, k), getvariable('c_asset_order')[rank] AS asset_order, getvariable('c_claim_order')[claim_j] AS claim_order,
           rnd('sent_type', ekey, rank * 10 + k) < getvariable('c_asset_positivity')[rank] AS positive
    FROM picked`,
  order: 'ord, asset_order, claim_order',
  write: `SELECT *, ${contextLookups}, getvariable('c_asset')[rank] AS asset_id, getvariable('c_claim')[claim_j] AS claim_id,
                 getvariable('c_claim_theme')[claim_j] AS theme_id, CASE WHEN positive THEN 'positive' ELSE 'negative' END AS sentiment_type
          FROM g_rows`,
};

const fanoutsSql = `
  WITH k AS (
    SELECT x.*, unnest(range(1 + floor(rnd('fan_n', x.ekey, 0) * 4)::INT)) AS k FROM g_ctx x WHERE x.search_triggered
  )
  SELECT ${context}, (x.k + 1)::INT AS position,
         getvariable('c_topic')[x.topic_i + 1] || ' ' || getvariable('l_modifier')[1 + floor(rnd('fan_q', x.cat_idx * 100000 + x.prompt_idx, floor(rnd('fan_v', x.ekey, x.k) * 6)::INT) * 8)::INT] AS query
  FROM k x`;

export const productsSql = `
  CREATE TABLE products AS
  SELECT c.cat_idx, p.i::INT AS product_i, uid('product', c.cat_idx, p.i) AS id, c.organization_id, c.id AS category_id,
         a.name || ' ' || getvariable('l_product_line')[1 + p.i % 8] || ' ' || (100 + p.i * 3) AS name,
         a.name AS brand,
         CASE WHEN rnd('rating_null', c.cat_idx, p.i) < 0.05 THEN NULL ELSE round(3.2 + rnd('rating', c.cat_idx, p.i) * 1.7, 1) END AS rating,
         CASE WHEN rating IS NULL THEN NULL ELSE floor(pow(rnd('reviews', c.cat_idx, p.i), 3) * 5000)::INT END AS num_reviews,
         a.website || '/products/' || lower(replace(getvariable('l_product_line')[1 + p.i % 8], ' ', '-')) || '-' || (100 + p.i * 3) AS url,
         list_transform(range(1 + floor(rnd('images', c.cat_idx, p.i) * 3)::INT), j -> 'https://img.' || a.site || '/p/' || (100 + p.i * 3) || '-' || (j + 1) || '.jpg') AS image_urls,
         pow(p.i + 1, -0.8) AS weight
  FROM categories c CROSS JOIN range(30) p(i)
  JOIN assets a ON a.cat_idx = c.cat_idx AND a.rank = 1 + (p.i * 7) % 20
  WHERE c.shopping`;

export const productMerchantsSql = `
  CREATE TABLE product_merchants AS
  WITH k AS (
    SELECT p.*, unnest(range(1 + floor(rnd('merchant_n', p.cat_idx, p.product_i) * 4)::INT)) AS k,
           floor(rnd('merchant_0', p.cat_idx, p.product_i) * 7)::INT AS start
    FROM products p
  )
  SELECT id AS product_id, organization_id, getvariable('l_merchant')[1 + (start + k) % 7] AS name,
         '$' || printf('%.2f', 19.99 + floor(rnd('price', id, k) * 300)) AS price
  FROM k`;

// The same weighted sampling as the mentions: each shopping answer's products in the order it lists them.
const shoppingSql = `
  WITH se AS (
    SELECT ${context}, x.ekey, 3 + floor(rnd('shop_n', x.ekey, 0) * 6)::INT AS n
    FROM g_ctx x WHERE x.shopping_model AND x.shopping_intent
  ), picked AS (
    SELECT * EXCLUDE (ekey, n),
           list_transform(list_sort(list_transform(range(len(getvariable('c_product'))),
             i -> {'key': -pow(rnd('shop_pos', ekey, i), 1.0 / getvariable('c_product_weight')[i + 1]), 'i': i}))[1:n], s -> s.i) AS product_is
    FROM se
  ), listed AS (
    SELECT * EXCLUDE (product_is), unnest(product_is) AS product_i, generate_subscripts(product_is, 1)::INT AS position FROM picked
  )
  SELECT * EXCLUDE (product_i), getvariable('c_product')[product_i + 1] AS product_id FROM listed`;

export const claimClustersSql = `
  CREATE TABLE claim_clusters AS
  SELECT c.cat_idx, k.i::INT AS cluster_i, uid('cluster', c.cat_idx, k.i) AS id, c.organization_id, c.id AS category_id,
         a.name || ' ' || getvariable('l_claim_statement')[1 + k.i % 10] AS claim,
         t.name AS theme,
         'The knowledge base contradicts this: see kb/' || lower(replace(a.name, ' ', '-')) || '/facts-' || (k.i % 10 + 1) || '.md' AS reasoning,
         CASE WHEN k.i % 5 = 0 THEN 0.7 ELSE 0.12 END AS inaccuracy
  FROM categories c CROSS JOIN range(40) k(i)
  JOIN assets a ON a.cat_idx = c.cat_idx AND a.rank = 1 + (k.i * 3) % 20
  JOIN themes t ON t.cat_idx = c.cat_idx AND t.i = k.i % 4`;

const claimOccurrencesSql = `
  WITH k AS (
    SELECT x.*, unnest(range(floor(rnd('claim_n', x.ekey, 0) * 3.5)::INT)) AS k FROM g_ctx x WHERE x.has_accuracy
  ), picked AS (
    SELECT DISTINCT ON (ekey, cluster_i) k.*, floor(40 * pow(rnd('claim_pick', k.ekey, k.k), 1.5))::INT AS cluster_i FROM k
  )
  SELECT ${context}, cc.id AS cluster_id, rnd('claim_acc', x.ekey, x.cluster_i) >= cc.inaccuracy AS accurate
  FROM picked x JOIN claim_clusters cc ON cc.cat_idx = x.cat_idx AND cc.cluster_i = x.cluster_i`;

/** The fact tables written once per category, in the order they are written. */
export const factTables = {
  executions: { rows: executionsSql },
  mentions,
  citations,
  sentiments,
  fanouts: { rows: fanoutsSql },
  shopping_results: { rows: shoppingSql },
  claim_occurrences: { rows: claimOccurrencesSql, order: 'ord, cluster_id' },
} as const satisfies Record<string, FactTable>;
