/**
 * Bot and referral traffic at minute resolution, one job at a time: an organization ($org), or one of its domains
 * ($dom) over the days [$d0, $d1) when a scale cuts its work finer.
 */
/**
 * A traffic part: the job's domain days (g_days, in the contract's order of domain, then day), and the rows each
 * day draws, written in file order without a sort across the job.
 */
export interface TrafficPart {
  readonly days: string;
  readonly rows: string;
}

/** The lists a traffic part looks its text up from, by rank; every job sets them on its connection. */
export const trafficVariablesSql = [
  ...['id', 'name', 'organization_id'].map(
    (c) => `SET VARIABLE t_domain_${c} = (SELECT list(${c} ORDER BY org_idx, dom_i) FROM domains)`,
  ),
  `SET VARIABLE t_path_rank = (SELECT list(r ORDER BY i) FROM (SELECT i, dense_rank() OVER (ORDER BY name) AS r FROM g_list WHERE kind = 'site_path'))`,
  `SET VARIABLE t_path_by_rank = (SELECT list(DISTINCT name ORDER BY name) FROM g_list WHERE kind = 'site_path')`,
  `SET VARIABLE t_bot_pick_rank = (SELECT list(pick_rank ORDER BY slot) FROM g_bot_pick)`,
  ...['name', 'provider', 'type'].map(
    (c) =>
      `SET VARIABLE t_bot_${c} = (SELECT list(${c} ORDER BY pick_rank) FROM (SELECT DISTINCT pick_rank, name, provider, type FROM g_bot_pick))`,
  ),
  `SET VARIABLE t_ref_pick_rank = (SELECT list(pick_rank ORDER BY slot) FROM g_referral_pick)`,
  `SET VARIABLE t_ref_source = (SELECT list(source ORDER BY pick_rank) FROM (SELECT DISTINCT pick_rank, source FROM g_referral_pick))`,
  `SELECT CASE WHEN len(getvariable('t_path_by_rank')) > 15 OR len(getvariable('t_bot_name')) > 127 OR len(getvariable('t_ref_source')) > 127
               THEN error('a traffic key field outgrew its bits') END`,
];

const days = (kind: string, base: string) => `
  CREATE OR REPLACE TEMP TABLE g_days AS
  SELECT dm.id, dm.dom_pos, d.day_idx, d.day, dense_rank() OVER (ORDER BY dm.name) AS domain_rank,
         round(dm.${base} * getvariable('scale') * (0.7 + 0.6 * rnd('${kind}_n', dm.id, d.day_idx)))::INT AS n
  FROM (SELECT *, row_number() OVER (ORDER BY org_idx, dom_i) AS dom_pos FROM domains) dm CROSS JOIN g_day d
  WHERE dm.org_idx = $org AND ($dom::INT IS NULL OR dm.dom_i = $dom::INT) AND d.day_idx >= $d0 AND d.day_idx < $d1
  ORDER BY domain_rank, day_idx`;

// TRICKY: a visit is one BIGINT whose bits, high to low, are its minute (11), host (2: blog. < docs. < www.), path
// (4) and pick (7) ranks in text order, then a flag (1). Within a domain day that order is the contract's (ts,
// then every column), so a day's keys are sorted inside its row and unnested: no sort across the job.
const visitKeys = (kind: string, pick: string) => `
  unnest(list_sort(list_transform(range(n), k ->
      (floor(rnd('${kind}_t', id, day_idx * 100000 + k) * 1440)::BIGINT << 25)
    | ((CASE WHEN rnd('${kind}_host', id, day_idx * 100000 + k) < 0.7 THEN 2
             WHEN rnd('${kind}_host2', id, day_idx * 100000 + k) < 0.67 THEN 0 ELSE 1 END)::BIGINT << 23)
    | (getvariable('t_path_rank')[1 + floor(12 * pow(rnd('${kind}_path', id, day_idx * 100000 + k), 1.8))::INT]::BIGINT << 19)
    | ${pick}))) AS key`;

const visitText = `getvariable('t_domain_organization_id')[dom_pos] AS organization_id,
  getvariable('t_domain_id')[dom_pos] AS domain_id, getvariable('t_domain_name')[dom_pos] AS domain,
  timezone('UTC', day::TIMESTAMP + to_minutes(key >> 25)) AS ts,
  ['blog.', 'docs.', 'www.'][((key >> 23) & 3) + 1] || getvariable('t_domain_name')[dom_pos] AS host,
  getvariable('t_path_by_rank')[(key >> 19) & 15] AS path, (key >> 12) & 127 AS pick_rank`;

export const botEvents: TrafficPart = {
  days: days('bot', 'bot_base'),
  rows: `
    SELECT * EXCLUDE (pick_rank), getvariable('t_bot_name')[pick_rank] AS bot_name,
           getvariable('t_bot_provider')[pick_rank] AS bot_provider, getvariable('t_bot_type')[pick_rank] AS bot_type
    FROM (SELECT ${visitText} FROM (
      SELECT dom_pos, day, ${visitKeys('bot', `(getvariable('t_bot_pick_rank')[1 + floor(rnd('bot_pick', id, day_idx * 100000 + k) * 100)::INT]::BIGINT << 12)`)}
      FROM g_days))`,
};

// The type follows from the source but for other sources, where the flag says utm (referer < utm).
export const referralVisits: TrafficPart = {
  days: days('ref', 'referral_base'),
  rows: `
    SELECT * EXCLUDE (pick_rank, utm),
           CASE WHEN referral_source IN ('internal', 'none') THEN referral_source WHEN utm THEN 'utm' ELSE 'referer' END AS referral_type
    FROM (
      SELECT *, getvariable('t_ref_source')[pick_rank] AS referral_source
      FROM (SELECT ${visitText}, (key >> 11) & 1 = 1 AS utm FROM (
        SELECT dom_pos, day, ${visitKeys('ref', `(getvariable('t_ref_pick_rank')[1 + floor(rnd('ref_pick', id, day_idx * 100000 + k) * 100)::INT]::BIGINT << 12) | ((rnd('ref_type', id, day_idx * 100000 + k) >= 0.75)::BIGINT << 11)`)}
        FROM g_days)))`,
};

/** Weighted picks as 100-slot lookup tables: slot s belongs to the entry whose cumulative weight covers it. */
export const pickTablesSql = [
  `CREATE TABLE g_bot_pick AS
   WITH c AS (SELECT *, sum(weight) OVER (ORDER BY i) AS hi, sum(weight) OVER () AS total FROM g_bot)
   SELECT s.slot::INT AS slot, c.name, c.provider, c.type, dense_rank() OVER (ORDER BY c.name, c.provider, c.type) AS pick_rank
   FROM range(100) s(slot) JOIN c ON s.slot * c.total < c.hi * 100 AND s.slot * c.total >= (c.hi - c.weight) * 100`,
  `CREATE TABLE g_referral_pick AS
   WITH c AS (SELECT *, sum(weight) OVER (ORDER BY i) AS hi, sum(weight) OVER () AS total FROM g_referral_source)
   SELECT s.slot::INT AS slot, c.source, dense_rank() OVER (ORDER BY c.source) AS pick_rank
   FROM range(100) s(slot) JOIN c ON s.slot * c.total < c.hi * 100 AND s.slot * c.total >= (c.hi - c.weight) * 100`,
];

export const contentItemsSql = `
  WITH k AS (
    SELECT a.*, unnest(range(6 + floor(20 * getvariable('scale'))::INT)) AS k FROM assets a WHERE a.is_owned
  ), items AS (
    SELECT k.*, ['file', 'text', 'url'][1 + (k.k % 3)] AS type,
           CASE WHEN k.k % 7 = 6 THEN 'failed' WHEN k.k % 5 = 4 THEN 'processing' ELSE 'completed' END AS status,
           'How ' || k.name || ' compares, draft ' || (k.k + 1) AS title
    FROM k
  )
  SELECT uid('content', cat_idx, k) AS id, organization_id, id AS asset_id, title,
         created_at + to_days(30 + k * 5) AS created_at,
         CASE WHEN type = 'file' AND k % 2 = 0 THEN NULL ELSE 'Extracted text of ' || title END AS extracted_input,
         type, status,
         json_object(
           'aeo_content_score', CASE WHEN status = 'completed' THEN json_object('value', round(40 + rnd('aeo', cat_idx, k) * 55, 1), 'target_zone', json_object('low', 70, 'high', 90)) END,
           'analysis', json_object('breakdown', [json_object('title', 'Structure', 'score', round(rnd('s1', cat_idx, k) * 100), 'weight', 0.4),
                                                 json_object('title', 'Citations', 'score', round(rnd('s2', cat_idx, k) * 100), 'weight', 0.6)]),
           'content', json_object('format', 'markdown', 'value', '# ' || title || chr(10) || chr(10) || name || ' leads on reliability.'),
           'inputs', json_object('prompt', NULL, 'topic', NULL, 'top_citations', ['https://www.wikipedia.org/'],
                                 'user', json_object('type', type, 'value', 'Input for ' || title, 'metadata', json_object('words', 120 + k))),
           'recommendations', [json_object('title', 'Add a comparison table', 'status', CASE WHEN k % 2 = 0 THEN 'done' ELSE 'pending' END,
                                           'impact', json_object('score', 12, 'section', 'Structure'),
                                           'suggestion', json_object('text', 'Compare ' || name || ' with two rivals.', 'rationale', 'Answer engines quote tables.'))]
         )::VARCHAR AS detail
  FROM items`;

export const agentsSql = `
  SELECT uid('agent', o.org_idx, a.i) AS id, o.id AS organization_id,
         o.brand || ' ' || ['visibility snapshot', 'bot traffic digest', 'draft explorer'][a.i + 1] AS name,
         ['Ranks brands in a category over a window', 'Summarises AI bot visits to a domain', NULL][a.i + 1] AS description,
         o.created_at + to_days(60 + a.i) AS created_at
  FROM organizations o CROSS JOIN range(3) a(i)`;

export const agentVersionsSql = `
  WITH v AS (
    SELECT o.org_idx, o.id AS organization_id, o.created_at, a.i, x.version, x.status
    FROM organizations o CROSS JOIN range(3) a(i)
    JOIN (VALUES (0, 1, 'published'), (0, 2, 'draft'), (1, 1, 'published'), (2, 1, 'draft')) x(agent_i, version, status) ON x.agent_i = a.i
  )
  SELECT uid('agent', org_idx, i) AS agent_id, organization_id, version::INT AS version, status,
         created_at + to_days(60 + i + version) AS created_at,
         CASE WHEN i = 1 THEN $bots_input ELSE $visibility_input END AS input_schema,
         $output_schema AS output_schema,
         CASE WHEN i = 1 THEN $bots_workflow WHEN version = 2 THEN $visibility_workflow_v2 ELSE $visibility_workflow END AS workflow
  FROM v`;
