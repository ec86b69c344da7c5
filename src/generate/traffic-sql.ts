/**
 * Bot and referral traffic at minute resolution, one job at a time: an organization ($org), or one of its domains
 * ($dom) over the days [$d0, $d1) when a scale cuts its work finer.
 */
export interface TrafficPart {
  readonly sql: string;
  /**
   * Small integers ordered as the contract's sort key and then every column are: a job holds one organization,
   * each of its domains has one id, hosts differ only in their prefix (blog. < docs. < www.), and paths and picks
   * are ranked by their text. Sorting on them instead of the text writes the same file for less.
   */
  readonly order: string;
}

const visits = (kind: string, base: string) => `
  WITH dd AS (
    SELECT dm.*, d.day_idx, d.day, dense_rank() OVER (ORDER BY dm.name) AS domain_rank,
           round(dm.${base} * getvariable('scale') * (0.7 + 0.6 * rnd('${kind}_n', dm.id, d.day_idx)))::INT AS n
    FROM domains dm CROSS JOIN g_day d WHERE dm.org_idx = $org AND ($dom::INT IS NULL OR dm.dom_i = $dom::INT) AND d.day_idx >= $d0 AND d.day_idx < $d1
  ), ev AS (
    SELECT dd.*, unnest(range(dd.n)) AS k FROM dd
  ), drawn AS (
    SELECT ev.*, ev.day_idx * 100000 + ev.k AS ekey,
           timezone('UTC', ev.day::TIMESTAMP + to_minutes(floor(rnd('${kind}_t', ev.id, ev.day_idx * 100000 + ev.k) * 1440)::BIGINT)) AS ts,
           CASE WHEN rnd('${kind}_host', ev.id, ev.day_idx * 100000 + ev.k) < 0.7 THEN 2
                WHEN rnd('${kind}_host2', ev.id, ev.day_idx * 100000 + ev.k) < 0.67 THEN 0 ELSE 1 END AS host_rank,
           1 + floor(12 * pow(rnd('${kind}_path', ev.id, ev.day_idx * 100000 + ev.k), 1.8))::INT AS path_i
    FROM ev
  )
  SELECT *, ['blog.', 'docs.', 'www.'][host_rank + 1] || name AS host, getvariable('l_site_path')[path_i] AS path,
         getvariable('l_site_path_rank')[path_i] AS path_rank
  FROM drawn`;

export const botEvents: TrafficPart = {
  sql: `
    WITH v AS (${visits('bot', 'bot_base')})
    SELECT v.organization_id, v.id AS domain_id, v.name AS domain, v.ts, v.host, v.path,
           b.name AS bot_name, b.provider AS bot_provider, b.type AS bot_type, v.domain_rank, v.host_rank, v.path_rank, b.pick_rank
    FROM v JOIN g_bot_pick b ON b.slot = floor(rnd('bot_pick', v.id, v.ekey) * 100)::INT`,
  order: 'domain_rank, ts, host_rank, path_rank, pick_rank',
};

// The type follows from the source but for other sources, where referer < utm.
export const referralVisits: TrafficPart = {
  sql: `
    WITH v AS (${visits('ref', 'referral_base')}), s AS (
      SELECT v.*, r.source, r.pick_rank, rnd('ref_type', v.id, v.ekey) AS tu
      FROM v JOIN g_referral_pick r ON r.slot = floor(rnd('ref_pick', v.id, v.ekey) * 100)::INT
    )
    SELECT organization_id, id AS domain_id, name AS domain, ts, host, path, source AS referral_source,
           CASE WHEN source IN ('internal', 'none') THEN source WHEN tu < 0.75 THEN 'referer' ELSE 'utm' END AS referral_type,
           domain_rank, host_rank, path_rank, pick_rank, tu >= 0.75 AS utm
    FROM s`,
  order: 'domain_rank, ts, host_rank, path_rank, pick_rank, utm',
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
