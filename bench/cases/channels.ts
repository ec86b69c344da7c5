import { channelsReport } from '../../src/reports/insights-v2/social/channels.ts';
import { platformDaily } from '../../src/reports/insights/platform-rollup.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * Video-platform channels: the window series (channels ranked by citations), cross-tabs by model and by
 * source type, a model filter, weekly rows, and a stream of a year by day × model. A category cites about
 * 40 channels, so there is no page 50.
 *
 * The floor: the window's video-platform citations of the category's answers; channels ranked by their
 * count, then title and id; each channel's cells (per model, source type or day) with their count,
 * distinct videos and share of all the citations in scope (of the same day when rows are dated).
 */

interface Shape {
  readonly cross?: 'model' | 'source_type';
  readonly interval?: 'day' | 'week';
  readonly where?: string;
}

function floorSql(s: Shape): string {
  const period = s.interval
    ? `, ${s.interval === 'day' ? 'f.day' : `CAST(date_trunc('week', f.day) AS DATE)`} AS period`
    : '';
  const byPeriod = s.interval ? 'period, ' : '';
  const cross = s.cross === 'model' ? 'model_id, ' : s.cross === 'source_type' ? 'source_type, ' : '';
  const order = [
    ...(s.interval ? ['x.period'] : []),
    'x.n DESC',
    ...(s.cross === 'model' ? ['mo.name', 'x.model_id'] : s.cross ? ['x.source_type'] : []),
  ];
  return `WITH p AS (SELECT id FROM prompts WHERE category_id = $category),
c AS (
  SELECT f.channel_id, f.channel_title, f.channel_handle, f.channel_url, f.video_id, f.model_id, f.source_type${period}
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE
    AND f.source_type IN ('video', 'short', 'channel', 'playlist')${s.where ?? ''}
),
t AS (SELECT ${byPeriod}count(*) AS total FROM c GROUP BY ALL),
sel AS (SELECT * FROM c WHERE channel_id IS NOT NULL),
l AS (
  SELECT channel_id, min(channel_title) AS title, min(channel_handle) AS handle, min(channel_url) AS url,
         row_number() OVER (ORDER BY count(*) DESC, min(channel_title), channel_id) AS rank
  FROM sel GROUP BY channel_id
),
x AS (SELECT channel_id, ${cross}${byPeriod}count(*) AS n, count(DISTINCT video_id) AS videos FROM sel GROUP BY ALL),
rows AS (
  SELECT l.rank AS ord, row_number() OVER (PARTITION BY l.rank ORDER BY ${order.join(', ')}) AS seq, l.title, l.handle, l.url,
         ${s.cross === 'model' ? 'mo.name AS cross, ' : s.cross ? 'x.source_type AS cross, ' : ''}${s.interval ? `strftime(x.period, '%Y-%m-%d') AS date, ` : ''}x.n, x.videos, x.n / t.total AS share
  FROM x JOIN l USING (channel_id) JOIN t ON ${s.interval ? 't.period = x.period' : 'TRUE'}${s.cross === 'model' ? '\n  LEFT JOIN models mo ON mo.id = x.model_id' : ''}
)`;
}

const row = (s: Shape) => (r: Row) => ({
  name: r.title,
  handle: r.handle,
  url: r.url,
  rank: r.ord,
  ...(s.cross ? { [s.cross]: r.cross } : {}),
  ...(s.interval ? { date: r.date } : {}),
  count: r.n,
  videos: r.videos,
  citation_share: r.share,
});

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: modelsHead('c') }, row(s));

const make = requestMaker(v2Shape(10));
const twoModels = { field: 'model', op: 'in', value: ['ChatGPT', 'Perplexity'] };
const inTwoModels = `\n    AND f.model_id IN (SELECT id FROM models WHERE name IN ('ChatGPT', 'Perplexity'))`;
const inputRows = `SELECT count(*) FROM citations WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE AND source_type IS NOT NULL`;

export const channelsCase: ReportCase = {
  report: 'channels',
  path: channelsReport.path,
  streamPath: channelsReport.streamPath!,
  plan: planProbe(channelsReport),
  pageBody: pagedPageBody(channelsReport),
  setup: warmCategoryRollups(platformDaily),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, channels, page 1`, days: d, windowSeries: true }, floor({})),
    ),
    make(
      { id: 'channel-model-30', label: '30 d by channel × model', days: 30, body: { group_by: ['channel', 'model'] } },
      floor({ cross: 'model' }),
    ),
    make(
      {
        id: 'channel-type-90',
        label: '90 d by channel × source type, 50 channels',
        days: 90,
        body: { group_by: ['channel', 'source_type'], limit: 50 },
      },
      floor({ cross: 'source_type' }),
    ),
    make(
      {
        id: 'week-models-90',
        label: '90 d weekly, two models',
        days: 90,
        body: { interval: 'week', filter: twoModels },
      },
      floor({ interval: 'week', where: inTwoModels }),
    ),
    make(
      {
        id: 'stream-day-model-365',
        label: 'stream: 365 d by channel × model × day',
        days: 365,
        stream: true,
        body: { group_by: ['channel', 'model'], interval: 'day' },
      },
      floor({ cross: 'model', interval: 'day' }),
    ),
  ],
};
