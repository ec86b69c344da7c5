import { rollupTable } from '../../engine/rollups.ts';
import type { FlatCatalog } from '../../query/flat-filters.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import type { GroupDimension } from '../insights/dimensions.ts';
import { visibilityRollups, type VisibilityRollup } from '../insights/visibility-rollup.ts';
import { groupByKeys, keysThen, keySelect, type InsightsPlan, type KeyedDimension } from './insights-common.ts';
import { rolledInScope, servedByRollup } from './rollup-scope.ts';

/** The v1 dimensions and filter fields a visibility rollup key stands for. */
const keyOf: Record<string, GroupDimension> = {
  date: 'date',
  model: 'model',
  model_id: 'model',
  region: 'region',
  region_id: 'region',
  region_name: 'region',
  topic: 'topic',
  topic_id: 'topic',
  topic_name: 'topic',
};

const brandDimensions: readonly string[] = ['asset_id', 'asset_name'];

/**
 * The visibility rollup that answers a v1 request, or null. Only per-brand requests read one: a
 * brand's answers with a mention are its mention rows (one per answer and brand), whereas brands taken
 * together count each answer once, which no per-brand rollup keeps. The request must fall on whole ET
 * days with day-or-longer buckets and group and filter only by keys the rollup keeps.
 */
export function visibilityV1Rollup(plan: InsightsPlan): VisibilityRollup | null {
  if (!plan.dimensions.some((d) => brandDimensions.includes(d))) return null;
  const asked = [
    ...plan.dimensions.filter((d) => !brandDimensions.includes(d)),
    ...plan.filters.map((f) => f.field).filter((f) => f !== 'asset_name'),
  ];
  if (asked.some((k) => keyOf[k] === undefined)) return null;
  const keys = asked.map((k) => keyOf[k]!);
  const rollup = visibilityRollups.find((r) => keys.every((k) => r.keeps.includes(k)));
  if (
    !rollup ||
    !servedByRollup(
      plan,
      [...plan.dimensions],
      plan.filters.map((f) => f.field),
    )
  )
    return null;
  return rollup;
}

/**
 * The answers (`answer_groups`) and the brands' mentions (`scoped_mentions`, `group_mentions`, `brand_mentions`) of v1 visibility summed from a rollup, with the
 * facts path's names and types (counts as BIGINT), so the metrics compile unchanged.
 */
export function rolledVisibility(
  plan: InsightsPlan,
  rollup: VisibilityRollup,
  catalog: FlatCatalog,
  defs: Record<string, KeyedDimension>,
  answerDims: readonly string[],
): Fragment {
  // TRICKY: a rollup keeping the prompt's topic stands for the prompt `p` too, so keys and filters over `p.topic_id` read the row itself.
  const from = (table: string) =>
    rollup.promptKeys
      ? sql`${ident(rollupTable(rollup.def, table))} f, (SELECT f.topic_id AS topic_id) p`
      : sql`${ident(rollupTable(rollup.def, table))} f`;
  return sql`answer_groups AS (
  SELECT ${keySelect(answerDims, defs)}CAST(sum(f.executions) AS BIGINT) AS executions
  ${rolledInScope(plan, catalog, from('executions'))}
  ${groupByKeys(answerDims)}
),
scoped_mentions AS (
  SELECT ${keySelect(answerDims, defs)}f.asset_id, f.mentions, f.position_sum
  ${rolledInScope(plan, catalog, from('mentions'))}
),
group_mentions AS (SELECT ${keysThen(answerDims)}CAST(sum(mentions) AS BIGINT) AS total_mentions FROM scoped_mentions GROUP BY ALL)`;
}

/** Per brand, an answer with a mention is one mention row, so `mentioned` is the mention count. */
export const rolledBrandMentions = (answerDims: readonly string[]): Fragment =>
  sql`SELECT ${keysThen(answerDims)}asset_id, CAST(sum(mentions) AS BIGINT) AS mentions, CAST(sum(mentions) AS BIGINT) AS mentioned, sum(position_sum) AS position_sum
  FROM scoped_mentions WHERE asset_id IN (SELECT id FROM chosen_brands) GROUP BY ALL`;
