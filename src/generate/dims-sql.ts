/**
 * Dimension tables of a generated dataset. Every random choice is `rnd(kind, a, b)`: a hash of the seed
 * and the choice's coordinates, so a row never depends on evaluation order or thread count.
 */
export const windowStart = '2025-10-01';
export const windowDays = 411;

export const setupSql = [
  `CREATE MACRO rnd(a, b, c) AS (hash(getvariable('seed'), a, b, c) >> 11)::DOUBLE / 9007199254740992.0`,
  `CREATE MACRO uidh(h) AS substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12)`,
  `CREATE MACRO uid(k, a, b) AS uidh(md5(concat_ws(':', getvariable('seed'), k, a, b)))`,
  `CREATE TABLE g_day AS SELECT i::INT AS day_idx, getvariable('window_start')::DATE + i::INT AS day FROM range(getvariable('window_days')) t(i)`,
];

export const dimsSql = [
  `CREATE TABLE organizations AS
   SELECT org_idx, uid('org', org_idx, 0) AS id, name, brand, domains,
          TIMESTAMPTZ '2024-01-15 15:00:00+00' + to_days(org_idx * 37) AS created_at
   FROM g_org`,

  `CREATE TABLE models AS SELECT model_idx, uid('model', model_idx, 0) AS id, name, shopping, search_rate FROM g_model`,

  `CREATE TABLE regions AS SELECT region_idx, uid('region', region_idx, 0) AS id, name, code FROM g_region`,

  `CREATE TABLE categories AS
   SELECT c.cat_idx, c.org_idx, uid('category', c.cat_idx, 0) AS id, o.id AS organization_id, c.name, c.noun, c.shopping,
          o.created_at + to_days(10 + c.cat_idx * 3) AS created_at
   FROM g_cat c JOIN organizations o USING (org_idx)`,

  `CREATE TABLE g_brand_perm AS
   SELECT i::INT AS i, (row_number() OVER (ORDER BY hash(getvariable('seed'), 'brand', i), i) - 1)::INT AS p FROM range(390) t(i)`,

  // TRICKY: brand popularity is Zipf-like in rank; the owned brand sits at rank 2–5 so it is never always first.
  `CREATE TABLE assets AS
   WITH a AS (
     SELECT c.cat_idx, c.org_idx, c.id AS category_id, c.organization_id, c.name AS cat_name, c.created_at AS cat_created,
            r.rank::INT AS rank, r.rank = 2 + c.cat_idx % 4 AS is_owned, bp.p
     FROM categories c CROSS JOIN range(1, 21) r(rank) JOIN g_brand_perm bp ON bp.i = c.cat_idx * 20 + r.rank - 1
   ), named AS (
     SELECT a.*, o.domains,
            CASE WHEN a.is_owned THEN o.brand || ' ' || split_part(a.cat_name, ' ', 1)
                 ELSE getvariable('l_syllable_a')[1 + a.p % 26] || getvariable('l_syllable_b')[1 + a.p // 26] END AS name
     FROM a JOIN g_org o USING (org_idx)
   )
   SELECT cat_idx, rank, pow(rank, -0.9) AS weight, uid('asset', cat_idx, rank) AS id, organization_id, category_id, name, is_owned,
          CASE WHEN is_owned THEN domains[1] ELSE lower(name) || '.com' END AS site,
          'https://www.' || site AS website,
          'https://www.' || site || '/logo.png' AS logo_url,
          CASE WHEN is_owned THEN domains[2:]
               WHEN rnd('alt', cat_idx, rank) < 0.3 THEN [lower(name) || '.co.uk']
               ELSE []::VARCHAR[] END AS alternate_domains,
          cat_created + to_days(rank) AS created_at,
          0.55 + 0.3 * rnd('positivity', cat_idx, rank) AS positivity
   FROM named`,

  `CREATE TABLE topics AS
   SELECT t.cat_idx, t.i, uid('topic', t.cat_idx, t.i) AS id, c.organization_id, c.id AS category_id, t.name, 'active' AS status
   FROM g_topic_name t JOIN categories c USING (cat_idx)`,

  `CREATE TABLE tags AS
   SELECT t.cat_idx, t.i, uid('tag', t.cat_idx, t.i) AS id, c.organization_id, c.id AS category_id, t.name
   FROM g_tag_name t JOIN categories c USING (cat_idx)`,

  `CREATE TABLE personas AS
   SELECT p.cat_idx, p.i, uid('persona', p.cat_idx, p.i) AS id, c.organization_id, c.id AS category_id, p.name,
          CASE WHEN p.i = 2 THEN NULL ELSE 'Struggles to compare ' || c.noun || ' quickly' END AS pain_points,
          'Wants the most dependable ' || c.noun AS motivations,
          [['Retail', 'Healthcare', 'Finance', 'Technology', 'Outdoors'][1 + (p.cat_idx + p.i) % 5]] AS industry,
          [p.name] AS job_title,
          CASE WHEN p.i = 0 THEN ['1-10', '11-50'] ELSE ['51-200'] END AS company_size,
          [['Individual contributor', 'Manager', 'Director'][1 + p.i % 3]] AS role_seniority,
          [['18-24', '25-34', '35-44', '45-54', '55+'][1 + (p.cat_idx * 3 + p.i) % 5]] AS age_range
   FROM g_persona_name p JOIN categories c USING (cat_idx)`,

  `CREATE TABLE themes AS
   SELECT t.cat_idx, t.i, uid('theme', t.cat_idx, t.i) AS id, c.organization_id, c.id AS category_id, t.name
   FROM g_theme_name t JOIN categories c USING (cat_idx)`,

  `CREATE TABLE sentiment_claims AS
   SELECT t.cat_idx, t.i AS theme_i, v.i AS claim_i, uid('sclaim', t.cat_idx, t.i * 10 + v.i) AS id, t.organization_id, t.category_id,
          t.id AS theme_id, t.name || ' ' || v.name AS name
   FROM themes t CROSS JOIN (SELECT i, name FROM g_list WHERE kind = 'claim_verdict') v`,
];

export const promptsSql = [
  `SET VARIABLE n_prompts = greatest(8, round(90 * getvariable('scale')))::INT`,

  `CREATE TABLE g_prompt AS
   WITH base AS (
     SELECT c.cat_idx, c.org_idx, c.id AS category_id, c.organization_id, c.noun, c.created_at AS cat_created, r.i::INT AS prompt_idx,
            (SELECT count(*) FROM topics t WHERE t.cat_idx = c.cat_idx)::INT AS nt
     FROM categories c CROSS JOIN range(getvariable('n_prompts')) r(i)
   )
   SELECT b.*, uid('prompt', cat_idx, prompt_idx) AS id,
          prompt_idx % 8 AS tmpl_i, (prompt_idx // 8) % nt AS topic_i, (prompt_idx // (8 * nt)) % 5 AS aud_i,
          prompt_idx // (40 * nt) AS variant,
          rnd('p_sent', cat_idx, prompt_idx) < 0.4 AS has_sentiment,
          rnd('p_acc', cat_idx, prompt_idx) < 0.25 AS has_accuracy,
          rnd('p_shop', cat_idx, prompt_idx) < 0.45 AS shopping_intent,
          CASE WHEN rnd('p_status', cat_idx, prompt_idx) < 0.08 THEN 'disabled' ELSE 'active' END AS status,
          rnd('p_asset', cat_idx, prompt_idx) < 0.15 AS tied_to_owned
   FROM base b`,

  `CREATE TABLE g_prompt_tag AS
   SELECT p.cat_idx, p.prompt_idx, t.i AS tag_i, t.id AS tag_id
   FROM g_prompt p JOIN tags t ON t.cat_idx = p.cat_idx
   WHERE rnd('p_tag', p.cat_idx * 100000 + p.prompt_idx, t.i) < 0.35`,

  `CREATE TABLE g_prompt_region AS
   SELECT p.cat_idx, p.prompt_idx, r.region_idx, r.id AS region_id
   FROM g_prompt p CROSS JOIN regions r
   WHERE r.region_idx = CASE WHEN rnd('p_r0', p.cat_idx, p.prompt_idx) < 0.55 THEN 0
                             ELSE 1 + floor(rnd('p_r1', p.cat_idx, p.prompt_idx) * 5)::INT END
      OR rnd('p_r2', p.cat_idx * 100000 + p.prompt_idx, r.region_idx) < 0.06`,

  `CREATE TABLE g_prompt_model AS
   SELECT p.cat_idx, p.prompt_idx, m.model_idx, m.id AS model_id
   FROM g_prompt p CROSS JOIN models m
   WHERE m.model_idx = p.prompt_idx % 8
      OR rnd('p_m', p.cat_idx * 100000 + p.prompt_idx, m.model_idx) < CASE WHEN m.shopping THEN 0.8 ELSE 0.35 END`,

  `CREATE TABLE g_prompt_persona AS
   SELECT p.cat_idx, p.prompt_idx, pe.i AS persona_i, pe.id AS persona_id
   FROM g_prompt p JOIN personas pe ON pe.cat_idx = p.cat_idx
   WHERE rnd('p_pe', p.cat_idx * 100000 + p.prompt_idx, pe.i) < 0.3`,

  `CREATE TABLE prompts AS
   WITH lists AS (
     SELECT p.cat_idx, p.prompt_idx,
            coalesce((SELECT list(x.tag_id ORDER BY x.tag_i) FROM g_prompt_tag x WHERE x.cat_idx = p.cat_idx AND x.prompt_idx = p.prompt_idx), []::VARCHAR[]) AS tag_ids,
            coalesce((SELECT list(x.region_id ORDER BY x.region_idx) FROM g_prompt_region x WHERE x.cat_idx = p.cat_idx AND x.prompt_idx = p.prompt_idx), []::VARCHAR[]) AS region_ids,
            coalesce((SELECT list(x.model_id ORDER BY x.model_idx) FROM g_prompt_model x WHERE x.cat_idx = p.cat_idx AND x.prompt_idx = p.prompt_idx), []::VARCHAR[]) AS platform_ids,
            coalesce((SELECT list(x.persona_id ORDER BY x.persona_i) FROM g_prompt_persona x WHERE x.cat_idx = p.cat_idx AND x.prompt_idx = p.prompt_idx), []::VARCHAR[]) AS persona_ids,
            coalesce((SELECT list(x.persona_i ORDER BY x.persona_i) FROM g_prompt_persona x WHERE x.cat_idx = p.cat_idx AND x.prompt_idx = p.prompt_idx), []::INT[]) AS persona_is
     FROM g_prompt p
   )
   SELECT p.cat_idx, p.prompt_idx, p.id, p.organization_id, p.category_id,
          replace(replace(replace(getvariable('l_template')[1 + p.tmpl_i], '{noun}', p.noun), '{audience}', au.name), '{topic}', lower(t.name))
            || CASE WHEN p.variant > 0 THEN ' (variant ' || (p.variant + 1) || ')' ELSE '' END AS prompt,
          t.id AS topic_id, p.topic_i, p.aud_i,
          'en-US' AS language,
          list_filter(['visibility', CASE WHEN p.has_sentiment THEN 'sentiment' END, CASE WHEN p.has_accuracy THEN 'accuracy' END], x -> x IS NOT NULL) AS analysis_types,
          'visibility' AS prompt_type,
          CASE WHEN p.tied_to_owned THEN (SELECT a.id FROM assets a WHERE a.cat_idx = p.cat_idx AND a.is_owned) END AS asset_id,
          p.status,
          p.cat_created + to_minutes(30 + p.prompt_idx) AS created_at,
          p.cat_created + to_minutes(30 + p.prompt_idx) AS updated_at,
          l.tag_ids, l.region_ids, l.platform_ids, l.persona_ids, l.persona_is,
          p.has_sentiment, p.has_accuracy, p.shopping_intent
   FROM g_prompt p
   JOIN lists l USING (cat_idx, prompt_idx)
   JOIN topics t ON t.cat_idx = p.cat_idx AND t.i = p.topic_i
   JOIN g_audience au ON au.cat_idx = p.cat_idx AND au.i = p.aud_i`,
];

/** Organization-level resources: domains, views, citation vocabularies, content and agents. */
export const orgResourcesSql = [
  `CREATE TABLE domains AS
   SELECT o.org_idx, d.i::INT AS dom_i, uid('domain', o.org_idx, d.i) AS id, o.id AS organization_id, o.domains[d.i + 1] AS name,
          o.created_at + to_days(5 + d.i) AS created_at, CASE WHEN d.i = 0 THEN 900 ELSE 250 END AS bot_base,
          CASE WHEN d.i = 0 THEN 400 ELSE 120 END AS referral_base
   FROM organizations o CROSS JOIN range(2) d(i)`,

  `CREATE TABLE domain_views AS
   SELECT uid('view', d.org_idx * 10 + d.dom_i, v.i) AS id, d.organization_id, d.id AS domain_id,
          CASE WHEN v.i = 0 THEN 'Blog (' || d.name || ')' ELSE 'Docs (' || d.name || ')' END AS name,
          CASE WHEN v.i = 0 THEN 'blog.' || d.name END AS host,
          CASE WHEN v.i = 1 THEN '/docs' END AS path_prefix
   FROM domains d CROSS JOIN range(2) v(i)`,

  `CREATE TABLE citation_categories AS
   SELECT uid('citecat', o.org_idx, s.i) AS id, o.id AS organization_id, s.name, CASE WHEN s.name = 'Review sites' THEN 'custom' ELSE 'standard' END AS kind
   FROM organizations o CROSS JOIN (SELECT i, name FROM (VALUES (0, 'owned'), (1, 'competition'), (2, 'social'), (3, 'earned_media'),
        (4, 'earned_institutions'), (5, 'pr_wire'), (6, 'other'), (7, 'Review sites')) v(i, name)) s`,

  `CREATE TABLE citation_tags AS
   SELECT uid('citetag', o.org_idx, t.i) AS id, o.id AS organization_id, o.org_idx, t.i AS tag_i,
          o.brand || CASE WHEN t.i = 0 THEN ' priority publishers' ELSE ' community forums' END AS name
   FROM organizations o CROSS JOIN range(2) t(i)`,

  `CREATE TABLE citation_tag_domains AS
   SELECT t.id AS tag_id, t.organization_id, s.name AS root_domain
   FROM citation_tags t JOIN g_site s
     ON (t.tag_i = 0 AND s.kind IN ('earned_media', 'Review sites') AND rnd('ctag', t.org_idx, hash(s.name)) < 0.6)
     OR (t.tag_i = 1 AND s.name IN ('reddit.com', 'quora.com'))`,
];
