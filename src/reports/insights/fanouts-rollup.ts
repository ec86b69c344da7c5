import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { leaves, type FilterNode } from '../../query/filter-node.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import { distinctSorted, inlined } from '../../query/dialect.ts';
import { modelNames } from './scope.ts';

/**
 * Query fan-outs' daily rollup: per category, ET day and prompt, the fan-outs of each query (`n`), and
 * the answers (`runs`), those that searched (`searched`) and the models that answered (`model_ids`).
 * It keeps the prompt, so a request joins it to the current prompts `p` as it would the facts, and
 * its prompt-level keys (topic, tags, analysis types) and filters compile unchanged. Counts are summed,
 * a distinct count of queries is exact because the query is a key, and the models in scope are the
 * union of the rows' lists. Model and region are left out: with them it would keep 60% of the fan-outs
 * and 83% of the answers at scale 1.
 */
export const fanoutsDaily: RollupDef = {
  name: 'fanouts_daily',
  scope: { kind: 'category', prompts: 'TRUE' },
  tables: {
    fanouts: `SELECT f.category_id, f.day, f.prompt_id, f.query, count(*) AS n
FROM fanouts f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, prompt_id, query`,
    runs: `SELECT f.category_id, f.day, f.prompt_id, count(*) AS runs, count(*) FILTER (WHERE f.search_triggered) AS searched, list_sort(list(DISTINCT f.model_id)) AS model_ids
FROM executions f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, prompt_id`,
  },
};

/** The rollup keeps the prompt and the query by day: it answers requests grouped and filtered by nothing else (prompt-level fields read the prompt). */
export function servedByFanoutsDaily(plan: {
  readonly groupBy: readonly string[];
  readonly filter: { readonly node: FilterNode | null };
}): boolean {
  const filtered = plan.filter.node ? leaves(plan.filter.node).map((l) => l.field) : [];
  return (
    plan.groupBy.every((d) => d === 'prompt' || d === 'query' || d === 'date') &&
    filtered.every((f) => f === 'prompt' || f === 'topic' || f === 'tag' || f === 'analysis_type')
  );
}

const table = (name: string) =>
  sql`${ident(rollupTable(fanoutsDaily, name))} f JOIN scope_prompts p ON p.id = f.prompt_id`;

/**
 * Where a report reads fan-outs and answers, and how it counts them: the facts (one row each, counted)
 * or the rollup (a row per key with its counts, summed). Over the fan-outs relation: `fanouts` counts
 * them. Over the answers relation: `searching` counts those that searched, of the rows `searched` keeps.
 */
export interface FanoutSource {
  readonly fanouts: Fragment;
  /** Columns a fan-out row carries besides its keys and query. */
  readonly fanoutColumns: Fragment;
  readonly count: Fragment;
  readonly runs: Fragment;
  readonly runColumns: Fragment;
  readonly searching: Fragment;
  readonly searched: Fragment;
  /** The models with answers in the answers relation `runs`, as a sorted list of names. */
  readonly models: Fragment;
  /** The answers and those that searched, over `runs`, as `runs, searched`. */
  readonly totals: Fragment;
  /** How `runs` is kept: the facts' joined answers once; the rollup's rows read again by each reference. */
  readonly runsAs: Fragment;
}

export const fanoutsFromRollup: FanoutSource = {
  fanouts: table('fanouts'),
  fanoutColumns: sql`, f.n AS w`,
  count: sql`CAST(sum(w) AS BIGINT)`,
  runs: table('runs'),
  runColumns: sql`f.runs AS n_runs, f.searched AS n_searched, f.model_ids`,
  searching: sql`CAST(sum(n_searched) AS BIGINT)`,
  searched: sql`n_searched > 0`,
  // TRICKY: the few distinct models first, then their names: joining every unnested id cost a third of a 365-day page.
  models: sql`coalesce((SELECT ${distinctSorted(sql`mo.name`)} FROM (SELECT DISTINCT unnest(model_ids) AS model_id FROM runs) x JOIN models mo ON mo.id = x.model_id), [])`,
  totals: sql`CAST(coalesce(sum(n_runs), 0) AS BIGINT) AS runs, CAST(coalesce(sum(n_searched), 0) AS BIGINT) AS searched`,
  // TRICKY: kept, a 365-day window's rows were copied with their lists of models (a quarter of the page at scale
  // 10); read again, each of the three references scans only the columns it needs.
  runsAs: inlined,
};

export const fanoutsFromFacts: FanoutSource = {
  fanouts: sql`fanouts f JOIN scope_prompts p ON p.id = f.prompt_id`,
  fanoutColumns: sql``,
  count: sql`count(*)`,
  runs: sql`executions f JOIN scope_prompts p ON p.id = f.prompt_id`,
  runColumns: sql`f.model_id, f.search_triggered`,
  searching: sql`count(*)`,
  searched: sql`search_triggered`,
  models: modelNames('runs'),
  totals: sql`count(*) AS runs, count(*) FILTER (WHERE search_triggered) AS searched`,
  runsAs: sql`AS`,
};

/** The v2 report's source: the rollup when it is current and answers the plan, else the facts. */
export const fanoutSource = (
  plan: Parameters<typeof servedByFanoutsDaily>[0],
  rollups: ReadonlySet<string>,
): FanoutSource =>
  rollups.has(fanoutsDaily.name) && servedByFanoutsDaily(plan) ? fanoutsFromRollup : fanoutsFromFacts;
