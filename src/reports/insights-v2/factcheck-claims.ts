import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { FilterNode } from '../../query/filter-node.ts';
import { ident, join, key, sql, type Fragment } from '../../query/sql.ts';
import { refuseFields, type DataGuard, type PagedReport } from '../paged-report.ts';
import { claimFilterFields, readClaimFilter } from './claim-filter.ts';
import { categoryOwned, checkUnique, checkWindow, cursorPaging, echoFilter, filterPredicate, insightsFields, maxResults, pageLimit } from './common.ts';
import { promptDimensions, tagTable } from './dimensions.ts';
import { inWindow, modelNames, promptsCte, type WindowScope } from './scope.ts';

const sectionDims = ['model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'] as const;
type SectionDimension = (typeof sectionDims)[number];
const includeNames = ['theme', 'reasoning', 'models', 'evidence', 'citation_sources'] as const;
type Include = (typeof includeNames)[number];

/** Sectioning by model lists every claim once per model; past this many inaccurate clusters it is refused. */
export const maxModelSectionClusters = 2000;
/** citation_sources lists a claim's most cited pages, best first. */
export const maxCitationSources = 10;

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(sectionDims)).max(1).optional().nullable(),
  include: z.array(z.enum(includeNames)).optional().nullable(),
  limit: pageLimit(100, 25).describe('claims (or sections) per page, 1 to 100, default 25'),
  max_results: maxResults(),
});

export type ClaimsRequest = z.output<typeof schema>;

export interface ClaimsPlan extends WindowScope {
  readonly section: SectionDimension | null;
  readonly include: readonly Include[];
  readonly filter: FilterNode | null;
}

/**
 * How a section dimension keys a fact row (`f`, its prompt `p`, its cluster `cc`), whether it splits
 * the answers (theme belongs to the claim, so every theme section counts all answers), and the
 * `{id, name}` of a key `s.k`.
 */
interface SectionKey {
  readonly key: Fragment;
  readonly splitsAnswers: boolean;
  readonly ref: (categoryId: string) => { join: Fragment; name: Fragment; id: Fragment };
}

const dimensionKey = (d: 'model' | 'region' | 'persona' | 'prompt' | 'topic'): SectionKey => {
  const t = promptDimensions[d].table;
  return {
    key: promptDimensions[d].column,
    splitsAnswers: true,
    ref: () => ({ join: sql`LEFT JOIN ${ident(t.table)} d ON d.id = s.k`, name: sql`d.${ident(t.name)}`, id: sql`s.k` }),
  };
};

const sectionKeys: Record<SectionDimension, SectionKey> = {
  model: dimensionKey('model'),
  region: dimensionKey('region'),
  persona: dimensionKey('persona'),
  prompt: dimensionKey('prompt'),
  topic: dimensionKey('topic'),
  // TRICKY: an answer counts in the section of each of its prompt's tags; an untagged one in a NULL section.
  tag: {
    key: sql`unnest(CASE WHEN len(p.tag_ids) = 0 THEN [NULL::VARCHAR] ELSE p.tag_ids END)`,
    splitsAnswers: true,
    ref: () => ({ join: sql`LEFT JOIN ${ident(tagTable.table)} d ON d.id = s.k`, name: sql`d.name`, id: sql`s.k` }),
  },
  theme: {
    key: sql`cc.theme`,
    splitsAnswers: false,
    ref: (categoryId) => ({
      join: sql`LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = ${categoryId} GROUP BY name) d ON d.name = s.k`,
      name: sql`s.k`,
      id: sql`d.id`,
    }),
  },
};

/** The claims of the fact-check answers in the window: CTEs `p`, `o` (occurrences with section key `k`). */
function occurrences(plan: ClaimsPlan): Fragment {
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, claimFilterFields, scope);
  const k = plan.section ? sql`${sectionKeys[plan.section].key} AS k, ` : sql``;
  return sql`${promptsCte(plan.categoryId, 'accuracy')},
o AS (
  SELECT ${k}f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE ${inWindow(plan)} AND ${filter}
)`;
}

function compile(plan: ClaimsPlan) {
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, claimFilterFields, scope);
  const section = plan.section ? sectionKeys[plan.section] : null;
  const answerKey = section?.splitsAnswers ? sql`${section.key} AS k, ` : sql``;
  const keyed = section?.splitsAnswers ?? false;
  const k = section ? sql`k, ` : sql``;
  const sameAnswers = (a: string, b: string) => (keyed ? sql`${ident(a)}.k IS NOT DISTINCT FROM ${ident(b)}.k` : sql`TRUE`);
  const sameSection = (a: string, b: string) => (section ? sql`${ident(a)}.k IS NOT DISTINCT FROM ${ident(b)}.k` : sql`TRUE`);
  const wants = (i: Include) => plan.include.includes(i);

  const extras: Fragment[] = [];
  if (wants('models')) {
    extras.push(sql`claim_models AS (
  SELECT ${k}cluster_id, list(json_object('id', model_id, 'name', name, 'occurrence', occurrence) ORDER BY occurrence DESC, name, model_id) AS models
  FROM (
    SELECT b.*, mo.name, 100 * b.n / a.answers AS occurrence
    FROM (SELECT ${k}cluster_id, model_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) b
    JOIN answers_by_model a ON a.model_id = b.model_id AND ${sameAnswers('a', 'b')}
    JOIN models mo ON mo.id = b.model_id
  )
  GROUP BY ALL
)`);
  }
  if (wants('evidence')) {
    extras.push(sql`claim_evidence_list AS (
  SELECT cluster_id, list(json_object('id', id, 'kb_path', kb_path, 'kb_snippet', kb_snippet,
                                      'source_updated_at', strftime(timezone('UTC', source_updated_at), '%Y-%m-%dT%H:%M:%SZ')) ORDER BY kb_path, id) AS evidence
  FROM claim_evidence WHERE cluster_id IN (SELECT cluster_id FROM claims) GROUP BY cluster_id
)`);
  }
  if (wants('citation_sources')) {
    extras.push(sql`cited AS (
  SELECT c.cluster_id, f.model_id, f.url, f.hostname, f.citation_category, f.title
  FROM (SELECT DISTINCT execution_id, cluster_id FROM o WHERE NOT accurate) c
  JOIN citations f ON f.execution_id = c.execution_id
  WHERE ${inWindow(plan)}
),
-- TRICKY: model-balanced: each model's share of its own citations, averaged over the models that cited anything for the
-- claim. The shares are summed in ascending order, so the double sum (and ties in the ranking) never depend on scan order.
per_model AS (
  SELECT cluster_id, model_id, url, count(*) / sum(count(*)) OVER (PARTITION BY cluster_id, model_id) AS share
  FROM cited GROUP BY cluster_id, model_id, url
),
sources AS (
  SELECT *, row_number() OVER (PARTITION BY cluster_id ORDER BY citation_share DESC, url) AS place
  FROM (
    SELECT s.cluster_id, s.url, 100 * s.total / m.models AS citation_share
    FROM (SELECT cluster_id, url, list_sum(list_sort(list(share))) AS total FROM per_model GROUP BY cluster_id, url) s
    JOIN (SELECT cluster_id, count(DISTINCT model_id) AS models FROM cited GROUP BY cluster_id) m USING (cluster_id)
  )
),
claim_sources AS (
  SELECT s.cluster_id, list(json_object('href', regexp_replace(s.url, '^[A-Za-z][A-Za-z0-9+.-]*://', ''), 'hostname', a.hostname,
      'citation_category', a.citation_category, 'domain_category', a.citation_category, 'snippet', a.title, 'citation_share', s.citation_share)
    ORDER BY s.place) AS citation_sources
  FROM sources s
  JOIN (
    SELECT url, min(hostname) AS hostname, min(citation_category) AS citation_category, min(title) AS title
    FROM cited WHERE url IN (SELECT url FROM sources WHERE place <= ${maxCitationSources}) GROUP BY url
  ) a USING (url)
  WHERE s.place <= ${maxCitationSources}
  GROUP BY s.cluster_id
)`);
  }

  const claimFields = [
    sql`'cluster_id', c.cluster_id`,
    sql`'claim', cc.claim`,
    sql`'occurrence', c.occurrence`,
    ...(wants('theme') ? [sql`'theme', cc.theme`] : []),
    ...(wants('reasoning') ? [sql`'reasoning', cc.reasoning`] : []),
    ...(wants('models') ? [sql`'models', coalesce(cm.models, [])`] : []),
    ...(wants('evidence') ? [sql`'evidence', coalesce(ce.evidence, [])`] : []),
    ...(wants('citation_sources') ? [sql`'citation_sources', coalesce(cs.citation_sources, [])`] : []),
  ];
  const claimJoins = join(
    [
      sql`JOIN claim_clusters cc ON cc.id = c.cluster_id`,
      ...(wants('models') ? [sql`LEFT JOIN claim_models cm ON cm.cluster_id = c.cluster_id AND ${sameSection('cm', 'c')}`] : []),
      ...(wants('evidence') ? [sql`LEFT JOIN claim_evidence_list ce ON ce.cluster_id = c.cluster_id`] : []),
      ...(wants('citation_sources') ? [sql`LEFT JOIN claim_sources cs ON cs.cluster_id = c.cluster_id`] : []),
    ],
    '\n',
  );

  const ctes = sql`${occurrences(plan)},
e AS (
  SELECT ${answerKey}f.id AS execution_id, f.model_id
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE ${inWindow(plan)} AND ${filter}
),
answers AS (SELECT ${keyed ? sql`k, ` : sql``}count(*) AS answers FROM e${keyed ? sql` GROUP BY k` : sql``}),
answers_by_model AS (SELECT ${keyed ? sql`k, ` : sql``}model_id, count(*) AS answers FROM e GROUP BY ALL),
claims AS (
  SELECT b.*, 100 * b.n / a.answers AS occurrence
  FROM (SELECT ${k}cluster_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON ${sameAnswers('a', 'b')}
)${extras.length > 0 ? sql`,
${join(extras, ',\n')}` : sql``},
claim_rows AS (
  SELECT c.*, cc.claim, json_object(${join(claimFields, ', ')}) AS claim_json
  FROM claims c
  ${claimJoins}
)`;

  const rows = section
    ? sectionRows(plan, section)
    : sql`SELECT row_number() OVER (ORDER BY occurrence DESC, claim, cluster_id) AS unit, 0 AS seq, claim_json::VARCHAR AS row FROM claim_rows`;
  const info = sql`SELECT json_object('models', ${modelNames('e')})`;
  return { ctes, rows, info };
}

/** One row per section: its accuracy counts and every inaccurate claim made in it. */
function sectionRows(plan: ClaimsPlan, section: SectionKey): Fragment {
  const ref = section.ref(plan.categoryId);
  const dim = plan.section!;
  return sql`SELECT row_number() OVER (ORDER BY ${ref.name} NULLS LAST, s.k NULLS LAST) AS unit, 0 AS seq,
       json_object(${key(dim)}, CASE WHEN s.k IS NULL THEN NULL ELSE json_object('id', ${ref.id}, 'name', ${ref.name}) END,
                   'accuracy', s.accurate / (s.accurate + s.inaccurate), 'accurate', s.accurate, 'inaccurate', s.inaccurate,
                   'total_claims', coalesce(r.total_claims, 0), 'claims', coalesce(r.claims, []))::VARCHAR AS row
FROM (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o GROUP BY k) s
LEFT JOIN (
  SELECT k, count(*) AS total_claims, list(claim_json ORDER BY occurrence DESC, claim, cluster_id) AS claims FROM claim_rows GROUP BY k
) r ON r.k IS NOT DISTINCT FROM s.k
${ref.join}`;
}

function guards(plan: ClaimsPlan): DataGuard[] {
  if (plan.section !== 'model') return [];
  return [
    {
      query: sql`WITH ${occurrences({ ...plan, section: null })} SELECT count(DISTINCT cluster_id) FROM o WHERE NOT accurate`,
      refuse: (value) => {
        const clusters = Number(value);
        if (clusters <= maxModelSectionClusters) return null;
        return valueError(
          ['body', 'group_by'],
          `group_by [model] is not available over more than ${maxModelSectionClusters} inaccurate claim clusters (this scope has ${clusters}); narrow the dates or the filter, or use the flat list`,
          ['model'],
        );
      },
    },
  ];
}

function check(req: ClaimsRequest, mode: 'page' | 'stream'): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.include, 'include')];
  const grouped = (req.group_by ?? []).length > 0;
  if (mode === 'stream') {
    if (grouped) issues.push(valueError(['body', 'group_by'], 'the stream sends the flat list of claims; group_by is not available on it', req.group_by));
    (req.include ?? []).forEach((inc, i) => {
      if (inc === 'evidence' || inc === 'citation_sources') issues.push(valueError(['body', 'include', i], `include ${inc} is not available on the stream`, inc));
    });
  }
  if (mode === 'page' && grouped) {
    const at = (req.include ?? []).indexOf('citation_sources');
    if (at >= 0) issues.push(valueError(['body', 'include', at], 'include citation_sources cannot be combined with group_by', 'citation_sources'));
  }
  const filter = readClaimFilter(req.filter);
  issues.push(...filter.issues);
  if (req.group_by?.[0] === 'tag' && filter.node && usesTag(filter.node)) {
    issues.push(valueError(['body', 'group_by'], 'group_by [tag] cannot be combined with a tag filter', req.group_by));
  }
  return issues;
}

const usesTag = (node: FilterNode): boolean => (node.kind === 'leaf' ? node.field === 'tag' : node.kind === 'and' && node.children.some(usesTag));

export const factcheckClaimsReport: PagedReport<ClaimsRequest, ClaimsPlan> = {
  id: 'factcheck-claims.v2',
  path: '/v2/reports/factcheck/claims',
  streamPath: '/v2/reports/factcheck/claims/stream',
  name: 'factcheckClaims',
  summary: 'Fact-check claims: the inaccurate claims behind an accuracy score, flat or sectioned by one dimension',
  tags: ['Reports v2'],
  schema,
  check,
  owned: categoryOwned,
  paging: cursorPaging(25),
  plan(req, ctx) {
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      section: req.group_by?.[0] ?? null,
      include: includeNames.filter((i) => req.include?.includes(i)),
      filter: readClaimFilter(req.filter).node,
    };
  },
  compile,
  guards,
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      models: page.sqlInfo.models ?? [],
      group_by: plan.section ? [plan.section] : [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter),
      include: plan.include,
    };
  },
};
