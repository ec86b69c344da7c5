import { list, sql, type Fragment } from '../../../query/sql.ts';
import { dayBucket, type CalendarInterval } from '../../../query/time.ts';
import { filterPredicate } from '../../insights/common.ts';
import { inWindow, promptsCte, type WindowScope } from '../../insights/scope.ts';
import { channelFilterFields, channelPromptFields, type ChannelFilter } from './channel-filter.ts';
import { factPlatform, rolledPlatform, type PlatformSource } from '../../insights/platform-rollup.ts';

/** What the channels and videos reports share of a plan: the window, the source types, the bucket and the filter. */
export interface PlatformPlan extends WindowScope {
  readonly sourceTypes: readonly string[];
  readonly interval: CalendarInterval | null;
  readonly filter: ChannelFilter;
}

/** Where a plan's citations are read: the rollup when it is current and serves the plan, else the facts. */
export const platformSource = (rolled: boolean): PlatformSource => (rolled ? rolledPlatform : factPlatform);

/**
 * The CTEs every ranked-leads report of the video platforms starts with: `platform_citations`, the
 * citations of the requested source types that the prompt-level clauses keep (`columns` of `f`, then
 * `source_type`, `model_id` and the period), and `sel`, those `selected` keeps, given the channel clauses' predicate.
 */
export function platformCitations(
  plan: PlatformPlan,
  columns: Fragment,
  selected: (channelClauses: Fragment) => Fragment,
  source: PlatformSource,
): Fragment {
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const period = plan.interval ? sql`, ${dayBucket(plan.interval, sql`f.day`)} AS period` : sql``;
  const channel = filterPredicate(plan.filter.channel, channelFilterFields, scope);
  return sql`${
    source.joinsPrompts
      ? sql`${promptsCte(plan.categoryId)},
`
      : sql``
  }platform_citations ${source.cteAs} (
  SELECT ${columns},
         f.source_type, f.model_id${period}${source.weight}
  FROM ${source.from}
  WHERE ${inWindow(plan)} AND f.source_type IN (${list(plan.sourceTypes)}) AND ${filterPredicate(plan.filter.prompt, channelPromptFields, scope)}
),
sel ${source.cteAs} (
  SELECT * FROM platform_citations f WHERE ${selected(channel)}
)`;
}
