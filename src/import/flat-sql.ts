import { createHash } from 'node:crypto';

/**
 * SQL that turns flat rows into the contract's tables. It reads `answers` (one row per answer and
 * mentioned brand, every value text) and optionally `cited` (one row per cited URL), and the macros
 * below give every object a stable id: the same names always give the same ids.
 */

/** A UUID text made from a name, so re-importing the same data gives the same ids (the name_id macro). */
export function nameId(kind: string, name: string): string {
  return createHash('md5')
    .update(`${kind}:${name}`)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}

export const setupSql = [
  `CREATE MACRO name_id(kind, name) AS regexp_replace(md5(kind || ':' || name), '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\\1-\\2-\\3-\\4-\\5')`,
  `CREATE MACRO list_of(text) AS CASE WHEN text IS NULL OR trim(text) = '' THEN []::VARCHAR[] ELSE list_sort(list_distinct(list_filter(list_transform(string_split(text, '|'), x -> trim(x)), x -> x <> ''))) END`,
  // TRICKY: the registrable domain by the last two labels, or three under a two-letter country code with
  // a generic second level (example.co.uk); a public-suffix list would be exact.
  `CREATE MACRO root_domain_of(host) AS coalesce(nullif(regexp_extract(host, '([^.]+\\.(co|com|org|net|gov|ac|edu)\\.[a-z]{2}|[^.]+\\.[^.]+)$', 1), ''), host)`,
];

/** One row per answer: its identity, context and instant; rows of the same answer must agree on them. */
export const answersSql = `CREATE TABLE a AS
WITH rows AS (
  SELECT *, coalesce(answer_id, concat_ws('|', executed_at, category, prompt, model, region, persona)) AS answer_key,
         CAST(executed_at AS TIMESTAMPTZ) AS instant
  FROM answers
)
SELECT answer_key,
       coalesce(TRY_CAST(any_value(answer_id) AS UUID), CAST(name_id('answer', answer_key) AS UUID)) AS id,
       any_value(category) AS category, any_value(prompt) AS prompt, any_value(coalesce(topic, 'General')) AS topic,
       any_value(model) AS model, any_value(region) AS region, any_value(persona) AS persona,
       any_value(tags) AS tags, any_value(coalesce(language, 'en-US')) AS language,
       min(instant) AS executed_at, coalesce(bool_or(CAST(search_triggered AS BOOLEAN)), false) AS search_triggered,
       coalesce(any_value(response), '') AS response
FROM rows GROUP BY answer_key`;

/**
 * The tables, in an order where each reads only earlier ones (`out_<table>`). `settings` holds the
 * organization's name; its id (hex and hyphens only, made by nameId) enters the text so that lambdas,
 * which take no subqueries, can use it.
 */
export const tablesSql = (organizationId: string) => {
  if (!/^[0-9a-f-]{36}$/.test(organizationId)) throw new RangeError(`not a UUID: ${organizationId}`);
  const organization = '(SELECT organization FROM settings)';
  const org = `'${organizationId}'`;
  const category = (c: string) => `name_id('category', ${org} || '/' || ${c})`;
  return {
    organizations: `SELECT ${org} AS id, ${organization} AS name, min(executed_at) AS created_at FROM a`,
    categories: `SELECT ${category('category')} AS id, ${org} AS organization_id, category AS name, min(executed_at) AS created_at FROM a GROUP BY category`,
    models: `SELECT name_id('model', model) AS id, model AS name, false AS shopping FROM a GROUP BY model`,
    regions: `SELECT name_id('region', region) AS id, region AS name, CASE WHEN length(region) = 2 THEN upper(region) ELSE '' END AS code FROM a GROUP BY region`,
    topics: `SELECT name_id('topic', ${category('category')} || '/' || topic) AS id, ${org} AS organization_id, ${category('category')} AS category_id, topic AS name, 'active' AS status FROM a GROUP BY category, topic`,
    tags: `SELECT name_id('tag', ${category('category')} || '/' || tag) AS id, ${org} AS organization_id, ${category('category')} AS category_id, tag AS name
           FROM (SELECT DISTINCT category, unnest(list_of(tags)) AS tag FROM a)`,
    personas: `SELECT name_id('persona', ${category('category')} || '/' || persona) AS id, ${org} AS organization_id, ${category('category')} AS category_id, persona AS name,
                 NULL::VARCHAR AS pain_points, NULL::VARCHAR AS motivations, []::VARCHAR[] AS industry, []::VARCHAR[] AS job_title,
                 []::VARCHAR[] AS company_size, []::VARCHAR[] AS role_seniority, []::VARCHAR[] AS age_range
               FROM a WHERE persona IS NOT NULL GROUP BY category, persona`,
    assets: `SELECT name_id('asset', ${category('category')} || '/' || brand) AS id, ${org} AS organization_id, ${category('category')} AS category_id, brand AS name,
               brand IN (SELECT brand FROM owned) AS is_owned, '' AS website, '' AS logo_url, []::VARCHAR[] AS alternate_domains, min(created_at) AS created_at
             FROM (SELECT a.category, m.brand, a.executed_at AS created_at FROM m JOIN a USING (answer_key)
                   UNION ALL SELECT a.category, o.brand, a.executed_at FROM a, owned o)
             GROUP BY category, brand`,
    prompts: `SELECT name_id('prompt', ${category('category')} || '/' || prompt) AS id, ${org} AS organization_id, ${category('category')} AS category_id, prompt,
                name_id('topic', ${category('category')} || '/' || min(topic)) AS topic_id, min(language) AS language,
                ['visibility'] AS analysis_types, 'visibility' AS prompt_type, NULL::VARCHAR AS asset_id, 'active' AS status,
                min(executed_at) AS created_at, min(executed_at) AS updated_at,
                list_sort(list_distinct(flatten(list(list_transform(list_of(tags), t -> name_id('tag', ${category('category')} || '/' || t)))))) AS tag_ids,
                list_sort(list_distinct(list(name_id('region', region)))) AS region_ids,
                list_sort(list_distinct(list(name_id('model', model)))) AS platform_ids,
                coalesce(list_sort(list_distinct(list(name_id('persona', ${category('category')} || '/' || persona)) FILTER (WHERE persona IS NOT NULL))), []) AS persona_ids
              FROM a GROUP BY category, prompt`,
    executions: `SELECT id, ${org} AS organization_id, ${category('category')} AS category_id, name_id('prompt', ${category('category')} || '/' || prompt) AS prompt_id,
                   name_id('model', model) AS model_id, name_id('region', region) AS region_id,
                   CASE WHEN persona IS NULL THEN NULL ELSE name_id('persona', ${category('category')} || '/' || persona) END AS persona_id,
                   executed_at, CAST(timezone('America/New_York', executed_at) AS DATE) AS day, search_triggered, response
                 FROM a`,
    mentions: `SELECT e.id AS execution_id, e.organization_id, e.category_id, e.prompt_id, e.model_id, e.region_id, e.persona_id, e.executed_at, e.day,
                 name_id('asset', e.category_id || '/' || m.brand) AS asset_id, m.position
               FROM m JOIN a USING (answer_key) JOIN out_executions e ON e.id = a.id`,
    citations: `SELECT e.id AS execution_id, e.organization_id, e.category_id, e.prompt_id, e.model_id, e.region_id, e.persona_id, e.executed_at, e.day,
                  c.position, c.url, c.hostname, c.path, root_domain_of(c.hostname) AS root_domain, coalesce(c.title, '') AS title,
                  coalesce(c.citation_category, 'other') AS citation_category,
                  NULL::VARCHAR AS source_type, NULL::VARCHAR AS channel_id, NULL::VARCHAR AS channel_title, NULL::VARCHAR AS channel_handle,
                  NULL::VARCHAR AS channel_url, NULL::VARCHAR AS video_id, NULL::VARCHAR AS video_title, NULL::VARCHAR AS video_category
                FROM c JOIN a USING (answer_key) JOIN out_executions e ON e.id = a.id`,
  };
};

/** Mentions: a brand at most once per answer, at its first position; without positions, the order of the rows. */
export const mentionsSql = `CREATE TABLE m AS
SELECT answer_key, brand,
       row_number() OVER (PARTITION BY answer_key ORDER BY position NULLS LAST, line) AS position
FROM (
  SELECT coalesce(answer_id, concat_ws('|', executed_at, category, prompt, model, region, persona)) AS answer_key, trim(brand) AS brand,
         min(CAST(position AS INTEGER)) AS position, min(line) AS line
  FROM answers WHERE nullif(trim(brand), '') IS NOT NULL GROUP BY ALL
)`;

/** Citations: URLs split into host and path, numbered in the answer by position, else by row order. */
export const citationsSql = `CREATE TABLE c AS
SELECT answer_id AS answer_key, url, lower(regexp_extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#:]+)', 1)) AS hostname,
       coalesce(nullif(regexp_extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+([^#]*)', 1), ''), '/') AS path, title, citation_category,
       row_number() OVER (PARTITION BY answer_id ORDER BY CAST(position AS INTEGER) NULLS LAST, line) AS position
FROM cited`;
