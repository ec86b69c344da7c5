import type { RollupDef } from '../../engine/rollups.ts';
import { leaves, type FilterNode } from '../../query/filter-node.ts';
import type { GroupDimension } from './dimensions.ts';

/**
 * Visibility's daily rollups: per category, day and a few keys, the answers and each brand's mentions
 * and position sum, over the prompts that track visibility. Each keeps its keys under the facts' names
 * (`topic_id` is the prompt's topic when built, so a topic edit makes the rollup stale with the prompt
 * version), so group keys and filters compile over it unchanged. A request reads the smallest that
 * keeps every key it groups or filters by.
 */
export interface VisibilityRollup {
  readonly def: RollupDef;
  /** The group-by dimensions and filter fields it can answer. */
  readonly keeps: readonly GroupDimension[];
  /** It keeps a key of the prompt (`topic_id`), which keys and filters read as `p.topic_id`. */
  readonly promptKeys: boolean;
}

const prompts = `list_contains(analysis_types, 'visibility')`;

function visibilityRollup(
  name: string,
  columns: readonly string[],
  keeps: readonly GroupDimension[],
): VisibilityRollup {
  const keys = columns.map((c) => (c === 'topic_id' ? 'p.topic_id' : `f.${c}`)).join(', ');
  const order = columns.join(', ');
  return {
    keeps,
    promptKeys: columns.includes('topic_id'),
    def: {
      name,
      scope: { kind: 'category', prompts },
      tables: {
        executions: `SELECT f.category_id, f.day, ${keys}, count(*) AS executions
FROM executions f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, ${order}`,
        mentions: `SELECT f.category_id, f.day, ${keys}, f.asset_id, count(*) AS mentions, sum(f.position)::BIGINT AS position_sum
FROM mentions f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, ${order}, asset_id`,
      },
    },
  };
}

/**
 * Smallest first: the first that keeps a request's keys answers it. At scale 1 the mentions fold
 * 4.48M rows into 0.58M (day × model) and 1.81M (× region); a day × prompt rollup would keep 2.67M, too
 * little gain for the memory it holds, so prompt keys read the facts.
 */
export const visibilityRollups: readonly VisibilityRollup[] = [
  visibilityRollup('visibility_daily', ['model_id'], ['date', 'model']),
  visibilityRollup('visibility_region_topic', ['region_id', 'topic_id'], ['date', 'region', 'topic']),
  visibilityRollup('visibility_model_region', ['model_id', 'region_id'], ['date', 'model', 'region']),
];

export const visibilityDaily = visibilityRollups[0]!.def;

const keeping = (fields: readonly string[]) =>
  visibilityRollups.find((r) => fields.every((f) => (r.keeps as readonly string[]).includes(f)));

/**
 * The rollups that answer a request, or null: `rows`, the smallest keeping every key it groups or
 * filters by, and `models`, the smallest keeping the model and every key it filters by (the models
 * with answers in scope, for `info.models`); often the same one.
 */
export function visibilityRollupsFor(plan: {
  groupBy: readonly GroupDimension[];
  filter: FilterNode | null;
}): { rows: VisibilityRollup; models: VisibilityRollup } | null {
  const filtered = plan.filter ? leaves(plan.filter).map((l) => l.field) : [];
  const rows = keeping([...plan.groupBy, ...filtered]);
  const models = keeping(['model', ...filtered]);
  return rows && models ? { rows, models } : null;
}
