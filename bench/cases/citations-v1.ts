import { planProbe } from '../lib/plan-probe.ts';
import { citationsV1Report } from '../../src/reports/tabular-v1/citations.ts';
import { citationsDaily } from '../../src/reports/insights/citations-rollup.ts';
import type { ReportCase } from '../lib/case.ts';
import { namedValues, type Envelope } from '../lib/floor.ts';
import { requestMaker, v1Window, windowDays } from '../lib/requests.ts';
import { tabularFloor, tabularPageBody, tabularShape } from '../lib/tabular-case.ts';
import { v1Dimensions, v1Rows } from '../lib/v1-floor.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * v1 citations: the window series by root domain, then pages by URL × day over 90 days (a 1,000-row
 * page, page 50 of 1,000 rows and a 50,000-row page: about 80,000 rows at scale 1), domains by model
 * with a region filter and a citation-category filter, and the stream of URL × day.
 *
 * The floor: every prompt's citations in the window; per group and model, the row's citations over the
 * model's citations in the same answer-level group; citation_share the mean over those models.
 */

const answerLevel = ['date', 'region', 'topic', 'topic_id', 'model', 'tag', 'prompt', 'prompt_id', 'persona'];

interface Shape {
  readonly dimensions: readonly string[];
  readonly scope?: string;
  readonly hit?: string;
}

function floorSql(s: Shape): string {
  const dims = s.dimensions.map((d) => v1Dimensions[d]!);
  const ks = dims.map((_, i) => `k${i}`);
  const answers = ks.filter((_, i) => answerLevel.includes(s.dimensions[i]!));
  const same = (a: string, b: string) => answers.map((k) => ` AND ${a}.${k} IS NOT DISTINCT FROM ${b}.${k}`).join('');
  const list = (cols: readonly string[], alias?: string) =>
    cols.map((k) => `${alias ? `${alias}.` : ''}${k}, `).join('');
  return `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category),
base AS (
  SELECT ${dims.map((d, i) => `${d.key} AS k${i}, `).join('')}f.model_id, ${s.hit ?? 'TRUE'} AS hit
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.scope ?? ''}
),
num AS (SELECT ${list(ks)}model_id, count(*) FILTER (WHERE hit) AS n FROM base GROUP BY ALL),
den AS (SELECT ${list(answers)}model_id, count(*) AS total FROM base GROUP BY ALL),
mc AS (SELECT ${list(answers)}count(*) AS models FROM den GROUP BY ALL),
g AS (
  SELECT ${list(ks, 'num')}sum(num.n) AS m0, sum(num.n / den.total) / any_value(mc.models) AS m1
  FROM num JOIN den ON den.model_id = num.model_id${same('num', 'den')} JOIN mc ON TRUE${same('num', 'mc')}
  ${ks.length ? `GROUP BY ${ks.map((k) => `num.${k}`).join(', ')} ` : ''}HAVING sum(num.n) > 0
),
${v1Rows(dims, 2)}`;
}

const floor = (s: Shape) => (e: Envelope) => tabularFloor(floorSql(s), e, s.dimensions.length, 2);

const make = requestMaker(tabularShape(v1Window));
const metrics = ['count', 'citation_share'];
const request = (spec: Parameters<typeof make>[0], s: Shape, extra: Record<string, unknown> = {}) =>
  make({ ...spec, body: { metrics, dimensions: s.dimensions, ...extra } }, floor(s));
const urlDays: Shape = { dimensions: ['url', 'date'] };
const inputRows = `SELECT count(*) FROM citations WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const citationsV1Case: ReportCase = {
  report: 'citations-v1',
  path: citationsV1Report.path,
  streamPath: citationsV1Report.streamPath!,
  plan: planProbe(citationsV1Report),
  pageBody: tabularPageBody,
  setup: warmCategoryRollups(citationsDaily),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      request(
        { id: `window-${d}`, label: `${d} d by root domain`, days: d, windowSeries: true },
        { dimensions: ['root_domain'] },
      ),
    ),
    request({ id: 'url-date-90-1k', label: '90 d by URL × day, 1,000-row page 1', days: 90 }, urlDays, {
      pagination: { limit: 1000 },
    }),
    request(
      {
        id: 'url-date-90-1k-p50',
        label: '90 d by URL × day, 1,000-row page 50',
        days: 90,
        page: 50,
        firstPageOf: 'url-date-90-1k',
      },
      urlDays,
      { pagination: { limit: 1000 } },
    ),
    request({ id: 'url-date-90-50k', label: '90 d by URL × day, 50,000-row page', days: 90 }, urlDays, {
      pagination: { limit: 50_000 },
    }),
    request(
      { id: 'model-domain-filter-30', label: '30 d by model × root domain, two regions, earned media', days: 30 },
      {
        dimensions: ['model', 'root_domain'],
        scope: `\n    AND f.region_id IN (SELECT id FROM regions WHERE name IN ('United States', 'Canada'))`,
        hit: `f.citation_category = 'earned_media'`,
      },
      {
        filters: [
          { field: 'region_name', operator: 'in', value: ['United States', 'Canada'] },
          { field: 'citation_category', operator: 'is', value: 'earned_media' },
        ],
      },
    ),
    request({ id: 'stream-url-date-90', label: 'stream: 90 d by URL × day', days: 90, stream: true }, urlDays),
  ],
};
