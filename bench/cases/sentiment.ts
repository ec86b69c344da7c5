import { sentimentReport } from '../../src/reports/insights-v2/sentiment/sentiment.ts';
import { sentimentDaily } from '../../src/reports/insights/sentiment-rollup.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, v2Window, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';
import {
  keyCols,
  keyFields,
  keyOrder,
  keyOutputs,
  keys,
  nameJoins,
  selectKeys,
  type FloorKey,
} from '../lib/v2-keys.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * v2 sentiment of the category's own brand: the window series (one row), by theme, by competitor, by
 * model with a region filter, by day × prompt page 1 and page 50, and a stream of every answer (run).
 *
 * The floor: the brand's (or each other brand's) assessments in the sentiment prompts' answers, per
 * group: positive share as a percentage, ranked by assessments, then the groups' names and ids (within
 * each day when grouped by day).
 */

const theme: FloorKey = { name: 'theme', expr: 'f.theme_id', table: { name: 'themes', column: 'name' } };
const competitor: FloorKey = { name: 'competitor', expr: 'f.asset_id', table: { name: 'assets', column: 'name' } };

interface Shape {
  readonly by?: readonly FloorKey[];
  readonly runs?: boolean;
  readonly where?: string;
}

function floorSql(s: Shape): string {
  const ks = s.by ?? [];
  const dated = ks.some((k) => k.name === 'date');
  const brands = ks.includes(competitor)
    ? 'f.asset_id IN (SELECT id FROM assets WHERE category_id = $category) AND f.asset_id NOT IN (SELECT id FROM target)'
    : 'f.asset_id IN (SELECT id FROM target)';
  const run = s.runs ? 'f.execution_id AS k_run, f.executed_at, ' : '';
  return `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category AND list_contains(analysis_types, 'sentiment')),
target AS (SELECT id FROM assets WHERE category_id = $category AND (name = $asset OR id = $asset)),
s AS (
  SELECT ${selectKeys(ks)}${run}f.model_id, f.sentiment_type
  FROM sentiments f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE AND ${brands}${s.where ?? ''}
),
c AS (
  SELECT ${keyCols(ks)}${s.runs ? 'k_run, max(executed_at) AS run_at, ' : ''}count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive
  FROM s ${ks.length || s.runs ? 'GROUP BY ALL' : 'HAVING count(*) > 0'}
),
ranked AS (
  SELECT c.*, row_number() OVER (${dated ? 'PARTITION BY c.k_date ' : ''}ORDER BY ${['c.n DESC', ...keyOrder(ks, 'c'), ...(s.runs ? ['c.k_run'] : [])].join(', ')}) AS rank
  FROM c
  ${nameJoins(ks, 'c')}
),
rows AS (
  SELECT row_number() OVER (ORDER BY ${dated ? 'r.k_date, ' : ''}r.rank) AS ord, 0 AS seq, ${keyOutputs(ks, 'r')}${s.runs ? `r.k_run, strftime(r.run_at, '%Y-%m-%dT%H:%M:%SZ') AS run_at, ` : ''}
         r.rank, 100 * r.positive / r.n AS positive, 100 - 100 * r.positive / r.n AS negative
  FROM ranked r
  ${nameJoins(ks, 'r')}
)`;
}

const row = (s: Shape) => (r: Row) => ({
  ...keyFields(s.by ?? [], r),
  ...(s.runs ? { run: { id: r.k_run, created_at: r.run_at } } : {}),
  rank: r.rank,
  positive_sentiment: r.positive,
  negative_sentiment: r.negative,
});

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: `${modelsHead('s')}` }, row(s));

const make = requestMaker(v2Shape(10, (p) => ({ ...v2Window(p), asset: p.asset })));
const twoRegions = { field: 'region', op: 'in', value: ['United States', 'Canada'] };
const inTwoRegions = `\n    AND f.region_id IN (SELECT id FROM regions WHERE name IN ('United States', 'Canada'))`;
const inputRows = `SELECT count(*) FROM sentiments WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const sentimentCase: ReportCase = {
  report: 'sentiment',
  path: sentimentReport.path,
  streamPath: sentimentReport.streamPath!,
  plan: planProbe(sentimentReport),
  pageBody: pagedPageBody(sentimentReport),
  setup: warmCategoryRollups(sentimentDaily),
  categories: 'SELECT DISTINCT category_id FROM sentiments',
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, the brand`, days: d, windowSeries: true }, floor({})),
    ),
    make({ id: 'theme-30', label: '30 d by theme', days: 30, body: { group_by: ['theme'] } }, floor({ by: [theme] })),
    make(
      { id: 'competitor-30', label: '30 d by competitor', days: 30, body: { group_by: ['competitor'], limit: 50 } },
      floor({ by: [competitor] }),
    ),
    make(
      {
        id: 'model-regions-90',
        label: '90 d by model, two regions',
        days: 90,
        body: { group_by: ['model'], filter: twoRegions },
      },
      floor({ by: [keys.model], where: inTwoRegions }),
    ),
    make(
      { id: 'date-prompt-90', label: '90 d by day × prompt, page 1', days: 90, body: { group_by: ['date', 'prompt'] } },
      floor({ by: [keys.day, keys.prompt] }),
    ),
    make(
      {
        id: 'date-prompt-90-p50',
        label: '90 d by day × prompt, page 50',
        days: 90,
        page: 50,
        firstPageOf: 'date-prompt-90',
        body: { group_by: ['date', 'prompt'] },
      },
      floor({ by: [keys.day, keys.prompt] }),
    ),
    make(
      { id: 'stream-run-365', label: 'stream: 365 d by run', days: 365, stream: true, body: { group_by: ['run'] } },
      floor({ runs: true }),
    ),
  ],
};
