import { everyColumn, formatInstant, orderedList, replaceFirst, semiJoin, struct } from '../../../query/dialect.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';
import { ident, sql, type Fragment } from '../../../query/sql.ts';
import type { ValueType } from '../../../query/row-shape.ts';
import { maxCitationSources, type ClaimsPlan, type Include } from './claims-plan.ts';
import type { SectionKey } from './claim-sections.ts';
import { inWindow } from '../../insights/scope.ts';

const modelOccurrence = declaredMetric('models[].occurrence (fact-check claims)', 'occurrence');
const sourceShare = declaredMetric('citation_sources[].citation_share (fact-check claims)', 'citation_share');

const text = (name: string) => ({ name, type: 'text' as const });
const modelList: ValueType = { list: { struct: [text('id'), text('name'), { name: 'occurrence', type: 'float' }] } };
const sourceList: ValueType = {
  list: {
    struct: [
      text('href'),
      text('hostname'),
      text('citation_category'),
      text('domain_category'),
      text('snippet'),
      { name: 'citation_share', type: 'float' },
    ],
  },
};

/** A claim's fields in output order: SQL over the claim `c`, its cluster `cc` and its lists `cm`, `ce`, `cs`; lists cross as JSON text. */
export interface ClaimField {
  readonly name: string;
  readonly expr: Fragment;
  readonly type: ValueType;
}

export function claimFields(plan: ClaimsPlan): ClaimField[] {
  const wants = (i: Include) => plan.include.includes(i);
  return [
    { name: 'cluster_id', expr: sql`c.cluster_id`, type: 'text' },
    { name: 'claim', expr: sql`cc.claim`, type: 'text' },
    { name: 'occurrence', expr: sql`c.occurrence`, type: 'float' },
    ...(wants('theme') ? [{ name: 'theme', expr: sql`cc.theme`, type: 'text' as const }] : []),
    ...(wants('reasoning') ? [{ name: 'reasoning', expr: sql`cc.reasoning`, type: 'text' as const }] : []),
    ...(wants('models') ? [{ name: 'models', expr: sql`coalesce(cm.models, [])`, type: modelList }] : []),
    ...(wants('evidence') ? [{ name: 'evidence', expr: sql`coalesce(ce.evidence, [])`, type: evidenceList }] : []),
    ...(wants('citation_sources')
      ? [{ name: 'citation_sources', expr: sql`coalesce(cs.citation_sources, [])`, type: sourceList }]
      : []),
  ];
}

/** A claim's evidence, as the row shows it. */
const evidenceList: ValueType = {
  list: { struct: [text('id'), text('kb_path'), text('kb_snippet'), { name: 'source_updated_at', type: 'instant' }] },
};

/**
 * The evidence of each claim in `claims`, as `claim_evidence_list (cluster_id, evidence)`: a list of
 * `{id, kb_path, kb_snippet, source_updated_at}` structs (the instant as ISO text), crossed as JSON text.
 */
function claimEvidence(): Fragment {
  return sql`claim_evidence_list AS (
  SELECT cluster_id, ${orderedList(
    struct([
      ['id', sql`id`],
      ['kb_path', sql`kb_path`],
      ['kb_snippet', sql`kb_snippet`],
      ['source_updated_at', formatInstant(sql`source_updated_at`)],
    ]),
    [{ by: sql`kb_path` }, { by: sql`id` }],
  )} AS evidence
  FROM claim_evidence WHERE cluster_id IN (SELECT cluster_id FROM claims) GROUP BY cluster_id
)`;
}

/**
 * The lists of the claims in `claims` (CTE with `cluster_id`, and `k` when sectioned): each model's
 * share of its own answers (counted by `answerCount` over `scoped_answers`), the evidence, and the most cited
 * pages. Built only for those claims.
 */
export function claimLists(
  plan: ClaimsPlan,
  section: SectionKey | null,
  answerCount: Fragment,
): { ctes: Fragment[]; joins: Fragment[] } {
  const wants = (i: Include) => plan.include.includes(i);
  const k = section ? sql`k, ` : sql``;
  const sameAnswers = (a: string, b: string) =>
    section?.splitsAnswers ? sql`${ident(a)}.k IS NOT DISTINCT FROM ${ident(b)}.k` : sql`TRUE`;
  const ctes: Fragment[] = [];
  const joins: Fragment[] = [];
  if (wants('models')) {
    ctes.push(sql`answers_by_model AS (SELECT ${section?.splitsAnswers ? sql`k, ` : sql``}model_id, ${answerCount} AS answers FROM scoped_answers GROUP BY ALL),
claim_models AS (
  SELECT ${k}cluster_id, ${orderedList(
    struct([
      ['id', sql`model_id`],
      ['name', sql`name`],
      ['occurrence', sql`occurrence`],
    ]),
    [{ by: sql`occurrence`, desc: true }, { by: sql`name` }, { by: sql`model_id` }],
  )} AS models
  FROM (
    SELECT ${everyColumn('b', ['model_id', ...(section?.splitsAnswers ? ['k'] : [])])}, mo.name, ${modelOccurrence.sql({ claim_answers: sql`b.n`, answers: sql`a.answers` })} AS occurrence
    FROM (SELECT ${k}cluster_id, model_id, count(*) AS n FROM scoped_occurrences o ${semiJoin} claims c ON c.cluster_id = o.cluster_id AND ${section ? sql`c.k IS NOT DISTINCT FROM o.k` : sql`TRUE`} WHERE NOT accurate GROUP BY ALL) b
    JOIN answers_by_model a ON a.model_id = b.model_id AND ${sameAnswers('a', 'b')}
    JOIN models mo ON mo.id = b.model_id
  )
  GROUP BY ALL
)`);
    joins.push(
      sql`LEFT JOIN claim_models cm ON cm.cluster_id = c.cluster_id${section ? sql` AND cm.k IS NOT DISTINCT FROM c.k` : sql``}`,
    );
  }
  if (wants('evidence')) {
    ctes.push(claimEvidence());
    joins.push(sql`LEFT JOIN claim_evidence_list ce ON ce.cluster_id = c.cluster_id`);
  }
  if (wants('citation_sources')) {
    ctes.push(sql`cited AS (
  SELECT c.cluster_id, f.model_id, f.url, f.hostname, f.citation_category, f.title
  FROM (SELECT DISTINCT execution_id, cluster_id FROM scoped_occurrences WHERE NOT accurate AND cluster_id IN (SELECT cluster_id FROM claims)) c
  JOIN citations f ON f.execution_id = c.execution_id
  WHERE ${inWindow(plan)}
),
per_model AS (
  SELECT cluster_id, model_id, url, count(*) AS n, sum(count(*)) OVER (PARTITION BY cluster_id, model_id) AS total
  FROM cited GROUP BY cluster_id, model_id, url
),
sources AS (
  SELECT *, row_number() OVER (PARTITION BY cluster_id ORDER BY citation_share DESC, url) AS place
  FROM (
    SELECT s.cluster_id, s.url, ${sourceShare.sql({ citations: sql`s.n`, answer_citations: sql`s.total`, models: sql`any_value(m.models)` })} AS citation_share
    FROM per_model s
    JOIN (SELECT cluster_id, count(DISTINCT model_id) AS models FROM cited GROUP BY cluster_id) m ON m.cluster_id = s.cluster_id
    GROUP BY s.cluster_id, s.url
  )
),
claim_sources AS (
  SELECT s.cluster_id, ${orderedList(
    struct([
      ['href', replaceFirst(sql`s.url`, sql`'^[A-Za-z][A-Za-z0-9+.-]*://'`, sql`''`)],
      ['hostname', sql`a.hostname`],
      ['citation_category', sql`a.citation_category`],
      ['domain_category', sql`a.citation_category`],
      ['snippet', sql`a.title`],
      ['citation_share', sql`s.citation_share`],
    ]),
    [{ by: sql`s.place` }],
  )} AS citation_sources
  FROM sources s
  JOIN (
    SELECT url, min(hostname) AS hostname, min(citation_category) AS citation_category, min(title) AS title
    FROM cited WHERE url IN (SELECT url FROM sources WHERE place <= ${maxCitationSources}) GROUP BY url
  ) a USING (url)
  WHERE s.place <= ${maxCitationSources}
  GROUP BY s.cluster_id
)`);
    joins.push(sql`LEFT JOIN claim_sources cs ON cs.cluster_id = c.cluster_id`);
  }
  return { ctes, joins };
}
