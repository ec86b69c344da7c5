import { videosReport } from '../../src/reports/insights-v2/social/videos.ts';
import { platformDaily } from '../../src/reports/insights/platform-rollup.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * Video-platform videos: the window series (videos ranked by citations), page 1 and page 50 over 90
 * days, a cross-tab by model, and a stream of a year by video × model × day.
 *
 * The floor: the window's video and short citations; videos ranked by count, then title and id; each
 * video's cells with their share of all the video and short citations in scope (of the same day when
 * rows are dated).
 */

interface Shape {
  readonly byModel?: boolean;
  readonly daily?: boolean;
}

function floorSql(s: Shape): string {
  const period = s.daily ? 'f.day AS period, ' : '';
  const order = [...(s.daily ? ['x.period'] : []), 'x.n DESC', ...(s.byModel ? ['mo.name', 'x.model_id'] : [])];
  return `WITH p AS (SELECT id FROM prompts WHERE category_id = $category),
c AS (
  SELECT ${period}f.video_id, f.video_title, f.channel_title, f.channel_handle, f.url, coalesce(f.video_category, '') AS video_category, f.model_id
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE AND f.source_type IN ('video', 'short')
),
t AS (SELECT ${s.daily ? 'period, ' : ''}count(*) AS total FROM c GROUP BY ALL),
sel AS (SELECT * FROM c WHERE video_id IS NOT NULL),
l AS (
  SELECT video_id, min(video_title) AS title, min(url) AS url, min(channel_title) AS channel, min(channel_handle) AS handle, min(video_category) AS video_category,
         row_number() OVER (ORDER BY count(*) DESC, min(video_title), video_id) AS rank
  FROM sel GROUP BY video_id
),
x AS (SELECT video_id, ${s.byModel ? 'model_id, ' : ''}${s.daily ? 'period, ' : ''}count(*) AS n FROM sel GROUP BY ALL),
rows AS (
  SELECT l.rank AS ord, row_number() OVER (PARTITION BY l.rank ORDER BY ${order.join(', ')}) AS seq, l.*,
         ${s.byModel ? 'mo.name AS model, ' : ''}${s.daily ? `strftime(x.period, '%Y-%m-%d') AS date, ` : ''}x.n, x.n / t.total AS share
  FROM x JOIN l USING (video_id) JOIN t ON ${s.daily ? 't.period = x.period' : 'TRUE'}${s.byModel ? '\n  LEFT JOIN models mo ON mo.id = x.model_id' : ''}
)`;
}

const row = (s: Shape) => (r: Row) => ({
  name: r.title,
  video_id: r.video_id,
  url: r.url,
  channel: r.channel,
  handle: r.handle,
  video_category: r.video_category,
  rank: r.rank,
  ...(s.byModel ? { model: r.model } : {}),
  ...(s.daily ? { date: r.date } : {}),
  count: r.n,
  citation_share: r.share,
});

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: modelsHead('c') }, row(s));

const make = requestMaker(v2Shape(10));
const inputRows = `SELECT count(*) FROM citations WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE AND source_type IN ('video', 'short')`;

export const videosCase: ReportCase = {
  report: 'videos',
  path: videosReport.path,
  streamPath: videosReport.streamPath!,
  plan: planProbe(videosReport),
  pageBody: pagedPageBody(videosReport),
  setup: warmCategoryRollups(platformDaily),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, videos, page 1`, days: d, windowSeries: true }, floor({})),
    ),
    make({ id: 'page1-90', label: '90 d, videos, page 1', days: 90 }, floor({})),
    make({ id: 'page50-90', label: '90 d, videos, page 50', days: 90, page: 50, firstPageOf: 'page1-90' }, floor({})),
    make(
      { id: 'video-model-30', label: '30 d by video × model', days: 30, body: { group_by: ['video', 'model'] } },
      floor({ byModel: true }),
    ),
    make(
      {
        id: 'stream-video-model-day-365',
        label: 'stream: 365 d by video × model × day',
        days: 365,
        stream: true,
        body: { group_by: ['video', 'model'], interval: 'day' },
      },
      floor({ byModel: true, daily: true }),
    ),
  ],
};
