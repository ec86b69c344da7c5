import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { leaves, type FilterNode } from '../../query/filter-node.ts';
import { inlined } from '../../query/dialect.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';

/** The source types of the video platforms: the only ones the channels and videos reports read. */
export const platformSourceTypes = ['video', 'short', 'channel', 'playlist'] as const;

/** Every citation column the channels and videos reports read besides the day, the model and the source type. */
const described = [
  'channel_id',
  'channel_title',
  'channel_handle',
  'channel_url',
  'video_id',
  'video_title',
  'url',
  'video_category',
];

/**
 * The video platforms' daily rollup: per category, ET day, model, source type and every column the
 * channels and videos reports read of a citation, the citations (`n`) of the category's prompts. Each
 * column a report reads is a key, so its filters, its minimum titles and its distinct videos are
 * exact over the rollup; counts are summed. Other citations are kept as one row per day, model and
 * source type with no description (no report reads them), so ClickHouse's rollup, fed by every
 * citation, holds the same rows. A prompt's deletion changes which citations count: the rollup is
 * keyed by the prompt version.
 */
export const platformDaily: RollupDef = {
  name: 'platform_daily',
  scope: { kind: 'category', prompts: 'TRUE' },
  tables: {
    citations: `SELECT f.category_id, f.day, f.model_id, f.source_type, ${described
      .map(
        (c) =>
          `CASE WHEN f.source_type IN (${platformSourceTypes.map((t) => `'${t}'`).join(', ')}) THEN f.${c} END AS ${c}`,
      )
      .join(', ')}, count(*) AS n
FROM citations f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, channel_id, video_id`,
  },
};

/** The description columns of the rollup, for its ClickHouse twin. */
export const platformDescribed: readonly string[] = described;

/** The rollup keeps the model among the prompt-level fields; the channel clauses read columns it keeps. */
export function servedByPlatformDaily(plan: { readonly filter: { readonly prompt: FilterNode | null } }): boolean {
  return plan.filter.prompt === null || leaves(plan.filter.prompt).every((l) => l.field === 'model');
}

/** Where the channels and videos reports read citations, and how they count them. */
export interface PlatformSource {
  readonly from: Fragment;
  /** Whether it joins the category's prompts (`scope_prompts`), which the prompt-level clauses may read. */
  readonly joinsPrompts: boolean;
  /** The weight column a selection of `f` carries, with a leading comma. */
  readonly weight: Fragment;
  /** The citations of a group of a selection of `f`, as a BIGINT aggregate. */
  readonly count: Fragment;
  /** How the CTEs over it are kept: the facts' joined rows once; the rollup's rows read again by each reference. */
  readonly cteAs: Fragment;
}

export const factPlatform: PlatformSource = {
  from: sql`citations f JOIN scope_prompts p ON p.id = f.prompt_id`,
  joinsPrompts: true,
  weight: sql``,
  count: sql`count(*)`,
  cteAs: sql`AS`,
};

export const rolledPlatform: PlatformSource = {
  from: sql`${ident(rollupTable(platformDaily, 'citations'))} f`,
  joinsPrompts: false,
  weight: sql`, f.n`,
  count: sql`CAST(coalesce(sum(n), 0) AS BIGINT)`,
  // TRICKY: kept, the window's rollup rows are copied with every text column (a third of a 365-day page at
  // scale 10); read again, each reference scans only the columns it needs, dictionary-compressed.
  cteAs: inlined,
};
