import { everyColumn, jsonText, orderedList, semiJoin, struct } from '../../../query/dialect.ts';
import { field, object, value } from '../../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../../query/sql.ts';
import type { ShapedReport, UnitRange } from '../../rows-query.ts';
import { claimFilterFields } from './claim-filter.ts';
import { claimFields, claimLists } from './claim-lists.ts';
import { occurrences, sectionKeys } from './claim-sections.ts';
import type { ClaimsPlan } from './claims-plan.ts';
import { filterPredicate } from '../../insights/common.ts';
import { partColumns, partFields, type RatioPart } from '../../insights/ratio-parts.ts';
import { modelNames, inWindow } from '../../insights/scope.ts';
import { factcheckAnswers } from '../../insights/factcheck-rollup.ts';
import { answersTable, readsModelAlone } from '../../insights/answers-rollup.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';

const occurrence = declaredMetric('fact-check occurrence', 'occurrence');

/** A section's accuracy over the section row `s`. */
const accuracy = declaredMetric('accuracy, accurate, inaccurate', 'accuracy');
const sectionCounts = { accurate: sql`s.accurate`, inaccurate: sql`s.inaccurate` };
const accuracyParts: RatioPart[] = [{ ratio: 'accuracy', ...accuracy.terms(sectionCounts) }];

const limitOffset = (range: UnitRange) =>
  sql`${range.upTo === null ? sql`` : sql` LIMIT ${range.upTo - range.after}`} OFFSET ${range.after}`;

/**
 * The answers claims divide by are counted by fact-check's answers rollup when the filter reads the model alone,
 * for a flat list and for sections that split no answers (theme) or split them by the model, which it keeps.
 */
export const answersCountedByRollup = (plan: ClaimsPlan): boolean =>
  (plan.section === null || plan.section === 'theme' || plan.section === 'model') && readsModelAlone(plan.filter);

/**
 * Fact-check claims: the inaccurate claims of the window's fact-check answers, flat (a claim per unit,
 * by occurrence) or one section per unit. The units are numbered by a top-N over the claims (or the
 * sections' names), and a claim's lists are built only for the claims of the range.
 */
export function compileClaims(plan: ClaimsPlan, rollups: ReadonlySet<string>): ShapedReport {
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const section = plan.section ? sectionKeys[plan.section] : null;
  const keyed = section?.splitsAnswers ?? false;
  const fields = claimFields(plan);
  const filter = filterPredicate(plan.filter, claimFilterFields, scope);
  const counted = rollups.has(factcheckAnswers.name) && answersCountedByRollup(plan);
  const answerCount = counted ? sql`CAST(coalesce(sum(answers), 0) AS BIGINT)` : sql`count(*)`;
  const ctes = sql`${occurrences(plan)},
scoped_answers AS (${
    counted
      ? sql`SELECT ${keyed ? sql`${section!.key} AS k, ` : sql``}f.model_id, f.answers FROM ${answersTable(factcheckAnswers)} WHERE ${inWindow(plan)} AND ${filter}`
      : sql`
  SELECT ${keyed ? sql`${section!.key} AS k, ` : sql``}f.model_id
  FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE ${inWindow(plan)} AND ${filter}
`
  }),
answers AS (SELECT ${keyed ? sql`k, ` : sql``}${answerCount} AS answers FROM scoped_answers${keyed ? sql` GROUP BY k` : sql``})`;
  const claims = (
    from: Fragment,
  ) => sql`SELECT ${everyColumn('b', keyed ? ['k'] : [])}, cc.claim, ${occurrence.sql({ claim_answers: sql`b.n`, answers: sql`a.answers` })} AS occurrence
  FROM (SELECT ${section ? sql`k, ` : sql``}cluster_id, count(*) AS n FROM ${from} WHERE NOT accurate GROUP BY ALL) b
  JOIN answers a ON ${keyed ? sql`a.k IS NOT DISTINCT FROM b.k` : sql`TRUE`}
  JOIN claim_clusters cc ON cc.id = b.cluster_id`;
  const lists = claimLists(plan, section, answerCount);
  const listCtes = lists.ctes.length > 0 ? sql`,\n${join(lists.ctes, ',\n')}` : sql``;
  const info = sql`SELECT ${modelNames('scoped_answers')} AS models`;

  if (!section) {
    const order = sql`occurrence DESC, claim, cluster_id`;
    const rows = (range: UnitRange) => sql`WITH claims AS (
  SELECT ${range.after} + row_number() OVER (ORDER BY ${order}) AS unit, *
  FROM (SELECT * FROM all_claims ORDER BY ${order}${limitOffset(range)})
)${listCtes}
SELECT c.unit, 0 AS seq, ${join(
      fields.map((f) => sql`${typeof f.type === 'string' ? f.expr : jsonText(f.expr)} AS ${ident(f.name)}`),
      ', ',
    )}
FROM claims c
JOIN claim_clusters cc ON cc.id = c.cluster_id
${join(lists.joins, '\n')}`;
    return {
      ctes: sql`${ctes},
all_claims AS (${claims(sql`scoped_occurrences`)})`,
      shape: {
        fields: fields.map((f) => field(f.name, value(f.name, f.type, typeof f.type === 'string' ? 'typed' : 'json'))),
      },
      rows,
      total: sql`SELECT count(*) FROM all_claims`,
      info,
      // Claims rank by whole-window occurrence, so each slice would aggregate the window again; a row is one claim.
      sliceUnits: Number.POSITIVE_INFINITY,
    };
  }

  const ref = section.ref(plan.categoryId);
  const dim = plan.section!;
  const order = sql`name NULLS LAST, k NULLS LAST`;
  const claimStruct = struct(fields.map((f) => [f.name, f.expr] as const));
  const rows = (range: UnitRange) => sql`WITH page_sections AS (
  SELECT ${range.after} + row_number() OVER (ORDER BY ${order}) AS unit, *
  FROM (
    SELECT s.*, ${ref.id} AS id, ${ref.name} AS name FROM sections s
    ${ref.join}
    ORDER BY ${order}${limitOffset(range)}
  )
),
claims AS (${claims(sql`scoped_occurrences o ${semiJoin} page_sections ps ON ps.k IS NOT DISTINCT FROM o.k`)})${listCtes},
section_claims AS (
  SELECT c.k AS k, count(*) AS total_claims, ${orderedList(claimStruct, [{ by: sql`c.occurrence`, desc: true }, { by: sql`c.claim` }, { by: sql`c.cluster_id` }])} AS claims
  FROM claims c
  JOIN claim_clusters cc ON cc.id = c.cluster_id
  ${join(lists.joins, '\n')}
  GROUP BY c.k
)
SELECT s.unit, 0 AS seq, s.id AS section_id, s.name AS section_name, ${accuracy.sql(sectionCounts)} AS accuracy, s.accurate, s.inaccurate,
       coalesce(r.total_claims, 0) AS total_claims, ${jsonText(sql`coalesce(r.claims, [])`)} AS claims${plan.components ? sql`, ${join(partColumns(accuracyParts), ', ')}` : sql``}
FROM page_sections s
LEFT JOIN section_claims r ON r.k IS NOT DISTINCT FROM s.k`;
  return {
    ctes: sql`${ctes},
sections AS (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM scoped_occurrences GROUP BY k)`,
    shape: {
      fields: [
        field(
          dim,
          object(
            [field('id', value('section_id', 'text')), field('name', value('section_name', 'text'))],
            ref.key === 'id' ? 'section_id' : 'section_name',
          ),
        ),
        field('accuracy', value('accuracy', 'float')),
        field('accurate', value('accurate', 'integer')),
        field('inaccurate', value('inaccurate', 'integer')),
        field('total_claims', value('total_claims', 'integer')),
        field(
          'claims',
          value('claims', { list: { struct: fields.map((f) => ({ name: f.name, type: f.type })) } }, 'json'),
        ),
        ...(plan.components ? partFields(accuracyParts) : []),
      ],
    },
    rows,
    total: sql`SELECT count(*) FROM sections`,
    info,
  };
}
