import { and, join, list, sql, type Fragment, type SqlValue } from '../../../query/sql.ts';
import { nextBucket } from '../../../query/time.ts';
import { nullDouble, nullText } from '../../../query/dialect.ts';
import { groupKey, promptDimensions } from '../../insights/dimensions.ts';
import type { VisibilityRollup } from '../../insights/visibility-rollup.ts';
import type { LeanGroup } from './lean-groups.ts';
import type { VisibilityPlan } from './visibility-plan.ts';
import { rollupFrom, visibilityPrompts, visibilityWindow } from './visibility-sources.ts';

// TRICKY: counts and sums of positions cross into JS as doubles, exact below 2^53 and read as plain numbers
// (64- and 128-bit integers arrive as bigints, several times slower to read).
const count = (aggregate: Fragment): Fragment => sql`CAST(${aggregate} AS DOUBLE)`;

export interface LeanSources {
  readonly rows: VisibilityRollup;
  readonly models: VisibilityRollup;
}

/**
 * The ungrouped answer's statements as one, so it reads one snapshot without a transaction: `part` 0 the
 * answers (by model when the source keeps it), 1 the mentions by brand, 2 the models in scope when the
 * answers do not say them; `id` the model or the brand.
 */
function together(answers: Fragment, mentions: Fragment, models: Fragment | null, withModel: boolean): Fragment {
  return sql`SELECT 0 AS part, ${withModel ? sql`model_id` : nullText} AS id, n, ${nullDouble} AS position_sum FROM (${answers}) a
UNION ALL SELECT 1 AS part, asset_id AS id, mentions AS n, position_sum FROM (${mentions}) m${
    models
      ? sql`
UNION ALL SELECT 2 AS part, model_id AS id, ${nullDouble} AS n, ${nullDouble} AS position_sum FROM (${models}) s`
      : sql``
  }`;
}

/** The small statements: answers per group (and model, when the source keeps it), the models in scope, and mentions per group and brand. */
export function leanStatements(plan: VisibilityPlan, rollups: LeanSources | null) {
  const s = statements(plan, rollups);
  return {
    ...s,
    ungrouped: plan.groupBy.length === 0 ? together(s.answers(null), s.mentions(sql``), s.models, s.withModel) : null,
  };
}

function statements(plan: VisibilityPlan, rollups: LeanSources | null) {
  const window = visibilityWindow(plan);
  const keys = plan.groupBy.map((d) => sql`${groupKey(d, plan.interval)}, `);
  const keysSelect = join(keys, '');
  const withModel = !rollups || rollups.rows.keeps.includes('model');
  const model = withModel ? sql`f.model_id, ` : sql``;
  // One row past the bound says the groups are not few (`leanAnswerRows`); null reads them all.
  const bounded = (rows: number | null) => (rows === null ? sql`` : sql` LIMIT ${rows + 1}`);
  if (rollups) {
    return {
      withModel,
      answers: (rows: number | null) =>
        sql`SELECT ${keysSelect}${model}${count(sql`sum(f.executions)`)} AS n FROM ${rollupFrom(rollups.rows, 'executions')} WHERE ${window} GROUP BY ALL${bounded(rows)}`,
      models: withModel
        ? null
        : sql`SELECT DISTINCT f.model_id FROM ${rollupFrom(rollups.models, 'executions')} WHERE ${window}`,
      mentions: (bound: Fragment) =>
        sql`SELECT ${keysSelect}f.asset_id, ${count(sql`sum(f.mentions)`)} AS mentions, ${count(sql`sum(f.position_sum)`)} AS position_sum FROM ${rollupFrom(rollups.rows, 'mentions')} WHERE ${window}${bound} GROUP BY ALL`,
    };
  }
  const prompts = visibilityPrompts(plan);
  return {
    withModel,
    answers: (rows: number | null) =>
      sql`WITH ${prompts} SELECT ${keysSelect}${model}${count(sql`count(*)`)} AS n FROM executions f JOIN visibility_prompts p ON p.id = f.prompt_id WHERE ${window} GROUP BY ALL${bounded(rows)}`,
    models: null,
    mentions: (bound: Fragment) =>
      sql`WITH ${prompts} SELECT ${keysSelect}f.asset_id, ${count(sql`count(*)`)} AS mentions, ${count(sql`sum(f.position)`)} AS position_sum FROM mentions f JOIN visibility_prompts p ON p.id = f.prompt_id WHERE ${window}${bound} GROUP BY ALL`,
  };
}

const isoDay = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);

/** Mentions bounded to the page's groups: their days, and each other key among the page's values. */
export function pageBound(plan: VisibilityPlan, page: readonly LeanGroup[]): Fragment {
  const parts = plan.groupBy.map((d, i) => {
    const values = page.map((g) => g.keys[i]);
    if (d === 'date') {
      const days = values.map(isoDay).sort();
      return sql`f.day >= CAST(${days[0]!} AS DATE) AND f.day < CAST(${nextBucket(plan.interval, days.at(-1)!)} AS DATE)`;
    }
    const column = promptDimensions[d].column;
    const present = [...new Set(values.filter((v) => v !== null && v !== undefined))] as SqlValue[];
    const hits = [
      ...(present.length > 0 ? [sql`${column} IN (${list(present)})`] : []),
      ...(present.length < values.length ? [sql`${column} IS NULL`] : []),
    ];
    return sql`(${join(hits, ' OR ')})`;
  });
  return parts.length === 0 ? sql`` : sql` AND ${and(parts)}`;
}
