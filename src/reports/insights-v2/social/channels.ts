import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import { sql, type Fragment } from '../../../query/sql.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import { v2Report, refuseIssues } from '../../v2-report.ts';
import type { ShapedReport } from '../../rows-query.ts';
import { readChannelFilter, type ChannelFilter } from './channel-filter.ts';
import {
  answerOver,
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  insightsFields,
  maxResults,
  pageLimit,
} from '../../insights/common.ts';
import { platformCitations, platformSource } from './platform-citations.ts';
import { platformDaily, servedByPlatformDaily } from '../../insights/platform-rollup.ts';
import { channelLeads as leads, type Lead } from './channel-leads.ts';
import { leadCrosses, type ShownCross } from './lead-crosses.ts';
import { leadAnswer, rankedLeads, type LeadField } from './ranked-leads.ts';
import type { WindowScope } from '../../insights/scope.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';
import { declaredRank } from '../../../query/measure-sql.ts';

const groupDims = ['channel', 'video_category', 'model', 'source_type'] as const;
type ChannelDimension = (typeof groupDims)[number];
const sourceTypeNames = ['video', 'short', 'channel', 'playlist', 'other'] as const;
type SourceType = Exclude<(typeof sourceTypeNames)[number], 'other'>;
const defaultSourceTypes: readonly SourceType[] = ['video', 'short', 'channel', 'playlist'];

/** What a row ranks (and pages by) and what it is crossed with. */
type Cross = 'video_category' | 'source_type' | 'model';

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable(),
  source_types: z.array(z.enum(sourceTypeNames)).min(1).optional().nullable(),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  limit: pageLimit(50, 10).describe('leading channels (or categories, source types) per page, 1 to 50, default 10'),
  max_results: maxResults(),
});

export type ChannelsRequest = z.output<typeof schema>;

export interface ChannelsPlan extends WindowScope {
  readonly lead: Lead;
  readonly cross: Cross | null;
  readonly interval: CalendarInterval | null;
  readonly sourceTypes: readonly SourceType[];
  readonly filter: ChannelFilter;
}

const crossable: readonly Cross[] = ['video_category', 'source_type', 'model'];

function shapeOf(
  groupBy: readonly ChannelDimension[] | null | undefined,
): { lead: Lead; cross: Cross | null } | ValidationIssue {
  const dims = groupBy ?? [];
  if (dims.length === 0) return { lead: 'channel', cross: null };
  if (dims.length === 1 && dims[0] !== 'model') return { lead: dims[0] as Lead, cross: null };
  const other = dims.filter((d) => d !== 'channel');
  if (dims.length === 2 && other.length === 1 && crossable.includes(other[0] as Cross))
    return { lead: 'channel', cross: other[0] as Cross };
  return valueError(
    ['body', 'group_by'],
    'group_by takes [channel], [video_category], [source_type], or a cross-tab [channel, video_category], [channel, source_type] or [channel, model]',
    groupBy,
  );
}

const groupByEcho = (plan: ChannelsPlan): string[] => (plan.cross ? ['channel', plan.cross] : [plan.lead]);

const crosses: Record<Cross, ShownCross> = leadCrosses;

/** Row fields in the order the channel row is documented. */
const fieldOrder = [
  'name',
  'handle',
  'url',
  'rank',
  'source_type',
  'video_category',
  'model',
  'date',
  'count',
  'videos',
  'citation_share',
];

const citationShare = declaredMetric('channel citation_share', 'citation_share');
const channelRank = declaredRank('rank (channels)', 'rank');
const shareParts = { citations: sql`x.n`, platform_citations: sql`t.total` };

/**
 * Channels: video-platform citations (source_type not NULL) of the window's answers, counted per
 * leading entity and ranked by count. The prompt-level part of the filter scopes the citations (and so
 * citation_share's denominator); the channel part selects which channels are counted and ranked.
 */
function compile(plan: ChannelsPlan, rollups: ReadonlySet<string>): ShapedReport {
  const lead = leads[plan.lead];
  const cross = plan.cross ? crosses[plan.cross] : null;
  const values: Record<string, LeadField> = {
    ...lead.fields,
    rank: { name: 'rank', expr: sql`l.unit`, type: 'integer' },
    ...(cross ? { [plan.cross!]: { name: plan.cross!, expr: cross.field, type: 'text', repeats: true } } : {}),
    ...(plan.interval ? { date: { name: 'date', expr: sql`x.period`, type: 'date' } } : {}),
    count: { name: 'count', expr: sql`x.n`, type: 'integer' },
    videos: { name: 'videos', expr: sql`x.videos`, type: 'integer' },
    citation_share: { name: 'citation_share', expr: citationShare.sql(shareParts), type: 'float' },
  };
  const source = platformSource(rollups.has(platformDaily.name) && servedByPlatformDaily(plan));
  return rankedLeads({
    count: source.count,
    ctes: platformCitations(
      plan,
      sql`f.channel_id, f.channel_title, f.channel_handle, f.channel_url, f.video_id, coalesce(f.video_category, '') AS video_category`,
      (channel) => (plan.lead === 'channel' ? sql`${channel} AND f.channel_id IS NOT NULL` : channel),
      source,
    ),
    key: lead.key,
    aggregates: lead.aggregates,
    label: lead.label,
    rank: channelRank,
    cross,
    byPeriod: plan.interval !== null,
    countsVideos: true,
    fields: fieldOrder.flatMap((f) => (values[f] ? [values[f]] : [])),
    keyed: plan.keyed ?? false,
  });
}

function sourceTypesOf(req: ChannelsRequest): SourceType[] {
  return req.source_types
    ? ([...new Set(req.source_types)].filter((t) => t !== 'other') as SourceType[])
    : [...defaultSourceTypes];
}

function check(req: ChannelsRequest, parsedFilter: ReturnType<typeof readChannelFilter>): ValidationIssue[] {
  const duplicates = checkUnique(req.group_by, 'group_by');
  const shape = shapeOf(req.group_by);
  const issues = [...checkWindow(req), ...duplicates, ...(duplicates.length === 0 && 'loc' in shape ? [shape] : [])];
  (req.source_types ?? []).forEach((t, i) => {
    if (t === 'other')
      issues.push(
        valueError(
          ['body', 'source_types', i],
          "source type 'other' has no channel; use video, short, channel or playlist",
          t,
        ),
      );
  });
  issues.push(...parsedFilter.issues);
  return issues;
}

const path = (platform: string) => `/v2/reports/social/${platform}/channels`;

export const channelsReport = v2Report<ChannelsRequest, ChannelsPlan, z.input<typeof schema>>({
  id: 'channels.v2',
  path: path('youtube'),
  streamPath: `${path('youtube')}/stream`,
  aliases: [
    { path: path('videoplatform'), streamPath: `${path('videoplatform')}/stream`, name: 'videoplatformChannels' },
  ],
  name: 'youtubeChannels',
  summary:
    'Video-platform channels: the channels (or video categories, or source types) cited in a category, ranked by citations',
  tags: ['Reports v2'],
  schema,
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readChannelFilter(req.filter);
    refuseIssues(check(req, parsedFilter));
    const shape = shapeOf(req.group_by) as { lead: Lead; cross: Cross | null };
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      lead: shape.lead,
      cross: shape.cross,
      interval: req.interval ?? null,
      sourceTypes: sourceTypesOf(req),
      filter: parsedFilter.filter,
    };
  },
  rollups: (plan) => (servedByPlatformDaily(plan) ? [{ def: platformDaily, scopeId: plan.categoryId }] : []),
  compile,
  answer: answerOver(
    (plan) =>
      leadAnswer(
        plan.cross !== null,
        plan.interval,
        ['count', 'videos', 'citation_share'],
        ['name', 'handle', 'url', 'source_type', 'video_category', 'model'],
      ),
    'give an interval',
  ),
  info(plan, page) {
    return {
      category_id: plan.categoryId,
      total_results: page.total,
      count: page.rows,
      next_cursor: page.nextCursor,
      ...(page.cursor ? { cursor: page.cursor } : {}),
      limit: page.limit,
      interval: plan.interval,
      group_by: groupByEcho(plan),
      models: page.sqlInfo.models ?? [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter.node),
      source_types: plan.sourceTypes,
    };
  },
});
