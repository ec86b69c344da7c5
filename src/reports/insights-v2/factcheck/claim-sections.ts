import { eachItemOrNull } from '../../../query/dialect.ts';
import { ident, sql, type Fragment } from '../../../query/sql.ts';
import { claimFilterFields } from './claim-filter.ts';
import type { ClaimsPlan, SectionDimension } from './claims-plan.ts';
import { filterPredicate } from '../../insights/common.ts';
import { promptDimensions, tagTable } from '../../insights/dimensions.ts';
import { inWindow, promptsCte } from '../../insights/scope.ts';

/**
 * How a section dimension keys a fact row (`f`, its prompt `p`, its cluster `cc`), whether it splits
 * the answers (theme belongs to the claim, so every theme section counts all answers), and the
 * `{id, name}` of a key `s.k` (`key` names the one of the two that is the key itself).
 */
export interface SectionKey {
  readonly key: Fragment;
  readonly splitsAnswers: boolean;
  readonly ref: (categoryId: string) => { join: Fragment; name: Fragment; id: Fragment; key: 'id' | 'name' };
}

const dimensionKey = (d: 'model' | 'region' | 'persona' | 'prompt' | 'topic'): SectionKey => {
  const t = promptDimensions[d].table;
  return {
    key: promptDimensions[d].column,
    splitsAnswers: true,
    ref: () => ({
      join: sql`LEFT JOIN ${ident(t.table)} d ON d.id = s.k`,
      name: sql`d.${ident(t.name)}`,
      id: sql`s.k`,
      key: 'id',
    }),
  };
};

export const sectionKeys: Record<SectionDimension, SectionKey> = {
  model: dimensionKey('model'),
  region: dimensionKey('region'),
  persona: dimensionKey('persona'),
  prompt: dimensionKey('prompt'),
  topic: dimensionKey('topic'),
  // TRICKY: an answer counts in the section of each of its prompt's tags; an untagged one in a NULL section.
  tag: {
    key: eachItemOrNull(sql`p.tag_ids`, false),
    splitsAnswers: true,
    ref: () => ({
      join: sql`LEFT JOIN ${ident(tagTable.table)} d ON d.id = s.k`,
      name: sql`d.name`,
      id: sql`s.k`,
      key: 'id',
    }),
  },
  theme: {
    key: sql`cc.theme`,
    splitsAnswers: false,
    ref: (categoryId) => ({
      join: sql`LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = ${categoryId} GROUP BY name) d ON d.name = s.k`,
      name: sql`s.k`,
      id: sql`d.id`,
      key: 'name',
    }),
  },
};

/** The claims of the fact-check answers in the window: CTEs `scope_prompts`, `scoped_occurrences` (occurrences with section key `k`). */
export function occurrences(plan: ClaimsPlan): Fragment {
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, claimFilterFields, scope);
  const k = plan.section ? sql`${sectionKeys[plan.section].key} AS k, ` : sql``;
  return sql`${promptsCte(plan.categoryId, 'accuracy')},
scoped_occurrences AS (
  SELECT ${k}f.execution_id, f.cluster_id, f.accurate, f.model_id
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id
  WHERE ${inWindow(plan)} AND ${filter}
)`;
}
