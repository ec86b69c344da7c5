import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import { ident, sql, type Fragment } from '../../../query/sql.ts';
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
import { leadCrosses, type ShownCross } from './lead-crosses.ts';
import { leadAnswer, rankedLeads, type LeadField } from './ranked-leads.ts';
import type { WindowScope } from '../../insights/scope.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';
import { declaredRank } from '../../../query/measure-sql.ts';

const groupDims = ['video', 'model', 'source_type'] as const;
type VideoDimension = (typeof groupDims)[number];
const sourceTypeNames = ['video', 'short', 'channel', 'playlist', 'other'] as const;
type VideoSourceType = 'video' | 'short';
const videoSourceTypes: readonly VideoSourceType[] = ['video', 'short'];
type Cross = 'model' | 'source_type';

const schema = z.strictObject({
  ...insightsFields,
  group_by: z
    .array(z.enum(groupDims))
    .optional()
    .nullable()
    .describe('[video] (default) ranks videos; cross-tabs [video, model] and [video, source_type]'),
  source_types: z
    .array(z.enum(sourceTypeNames))
    .min(1)
    .optional()
    .nullable()
    .describe('video and short (default both); the others have no video'),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  limit: pageLimit(50, 10).describe('videos per page, 1 to 50, default 10'),
  max_results: maxResults(),
});

export type VideosRequest = z.output<typeof schema>;

export interface VideosPlan extends WindowScope {
  readonly cross: Cross | null;
  readonly interval: CalendarInterval | null;
  readonly sourceTypes: readonly VideoSourceType[];
  readonly filter: ChannelFilter;
}

function crossOf(groupBy: readonly VideoDimension[] | null | undefined): { cross: Cross | null } | ValidationIssue {
  const others = (groupBy ?? []).filter((d) => d !== 'video');
  const hasVideo = (groupBy ?? []).length === 0 || (groupBy ?? []).includes('video');
  if (hasVideo && others.length === 0) return { cross: null };
  if (hasVideo && others.length === 1) return { cross: others[0] as Cross };
  return valueError(
    ['body', 'group_by'],
    'group_by takes [video], or a cross-tab [video, model] or [video, source_type]',
    groupBy,
  );
}

const crosses: Record<Cross, ShownCross> = leadCrosses;

const fieldOrder = [
  'name',
  'video_id',
  'url',
  'channel',
  'handle',
  'video_category',
  'rank',
  'source_type',
  'model',
  'date',
  'count',
  'citation_share',
];

const citationShare = declaredMetric('video count, video citation_share, video rank', 'citation_share');
const videoRank = declaredRank('video count, video citation_share, video rank', 'rank');
const shareParts = { citations: sql`x.n`, platform_citations: sql`t.total` };

/**
 * Videos: the video-platform videos and shorts cited in a category's answers, ranked by citations like
 * the channels report ranks channels: the prompt-level clauses scope the citations (and citation_share's
 * denominator, the video and short citations of the requested source types), the channel clauses pick
 * the videos of some channels, and limit counts videos, whose cross-tab rows stay on one page.
 */
function compile(plan: VideosPlan, rollups: ReadonlySet<string>): ShapedReport {
  const cross = plan.cross ? crosses[plan.cross] : null;
  const lead = (name: string, column: string): LeadField => ({
    name,
    expr: sql`l.${ident(column)}`,
    type: 'text',
    repeats: true,
  });
  const values: Record<string, LeadField> = {
    name: lead('name', 'title'),
    video_id: lead('video_id', 'lead_key'),
    url: lead('url', 'url'),
    channel: lead('channel', 'channel'),
    handle: lead('handle', 'handle'),
    video_category: lead('video_category', 'video_category'),
    rank: { name: 'rank', expr: sql`l.unit`, type: 'integer' },
    ...(cross ? { [plan.cross!]: { name: plan.cross!, expr: cross.field, type: 'text', repeats: true } } : {}),
    ...(plan.interval ? { date: { name: 'date', expr: sql`x.period`, type: 'date' } } : {}),
    count: { name: 'count', expr: sql`x.n`, type: 'integer' },
    citation_share: { name: 'citation_share', expr: citationShare.sql(shareParts), type: 'float' },
  };
  const source = platformSource(rollups.has(platformDaily.name) && servedByPlatformDaily(plan));
  return rankedLeads({
    count: source.count,
    ctes: platformCitations(
      plan,
      sql`f.video_id, f.video_title, f.channel_title, f.channel_handle, f.url, coalesce(f.video_category, '') AS video_category`,
      (channel) => sql`f.video_id IS NOT NULL AND ${channel}`,
      source,
    ),
    key: sql`video_id`,
    aggregates: sql`min(video_title) AS title, min(url) AS url, min(channel_title) AS channel, min(channel_handle) AS handle, min(video_category) AS video_category, `,
    label: sql`title`,
    rank: videoRank,
    cross,
    byPeriod: plan.interval !== null,
    fields: fieldOrder.flatMap((f) => (values[f] ? [values[f]] : [])),
    keyed: plan.keyed ?? false,
  });
}

function check(req: VideosRequest, parsedFilter: ReturnType<typeof readChannelFilter>): ValidationIssue[] {
  const duplicates = checkUnique(req.group_by, 'group_by');
  const shape = crossOf(req.group_by);
  const issues = [...checkWindow(req), ...duplicates, ...(duplicates.length === 0 && 'loc' in shape ? [shape] : [])];
  (req.source_types ?? []).forEach((t, i) => {
    if (!videoSourceTypes.includes(t as VideoSourceType))
      issues.push(valueError(['body', 'source_types', i], `source type '${t}' has no video; use video or short`, t));
  });
  issues.push(...parsedFilter.issues);
  return issues;
}

const path = (platform: string) => `/v2/reports/social/${platform}/videos`;

export const videosReport = v2Report<VideosRequest, VideosPlan, z.input<typeof schema>>({
  id: 'videos.v2',
  path: path('youtube'),
  streamPath: `${path('youtube')}/stream`,
  aliases: [
    { path: path('videoplatform'), streamPath: `${path('videoplatform')}/stream`, name: 'videoplatformVideos' },
  ],
  name: 'youtubeVideos',
  summary: 'Video-platform videos: the videos and shorts cited in a category, ranked by citations',
  tags: ['Reports v2'],
  schema,
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readChannelFilter(req.filter, 'videos');
    refuseIssues(check(req, parsedFilter));
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      cross: (crossOf(req.group_by) as { cross: Cross | null }).cross,
      interval: req.interval ?? null,
      sourceTypes: req.source_types
        ? videoSourceTypes.filter((t) => req.source_types!.includes(t))
        : [...videoSourceTypes],
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
        ['count', 'citation_share'],
        ['name', 'video_id', 'url', 'channel', 'handle', 'video_category', 'source_type', 'model'],
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
      group_by: plan.cross ? ['video', plan.cross] : ['video'],
      models: page.sqlInfo.models ?? [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter.node),
      source_types: plan.sourceTypes,
    };
  },
});
