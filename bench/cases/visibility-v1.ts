import { planProbe } from '../lib/plan-probe.ts';
import { visibilityV1Report } from '../../src/reports/tabular-v1/visibility.ts';
import type { ReportCase } from '../lib/case.ts';
import { namedValues, type Envelope } from '../lib/floor.ts';
import { requestMaker, v1Window, windowDays } from '../lib/requests.ts';
import { tabularFloor, tabularPageBody, tabularShape } from '../lib/tabular-case.ts';
import { v1Dimensions, v1Rows, type V1Dimension } from '../lib/v1-floor.ts';

/**
 * v1 visibility: the window series by brand, day × model × brand (a 1,000-row page), prompt × day ×
 * brand over 60 days (page 1 and page 50 of 1,000 rows, a 50,000-row page: about 96,000 rows at every
 * scale), the
 * own brands together in one region, and the stream of prompt × day × brand.
 *
 * The floor: per answer-level group, its answers, and each brand's mentions, answers mentioning it and
 * position sum over the visibility prompts' answers; every brand of the category in every group.
 */

const metrics = ['visibility_score', 'share_of_voice', 'mentions_count', 'executions', 'average_position'];
const brand: V1Dimension = { key: 'b.id', table: ['assets', 'name'] };

interface Shape {
  readonly dimensions: readonly string[];
  readonly scope?: string;
}

function floorSql(s: Shape): string {
  const perBrand = s.dimensions.includes('asset_name');
  const answerDims = s.dimensions.filter((d) => d !== 'asset_name');
  const ks = answerDims.map((_, i) => `a${i}`);
  const keyed = (alias?: string) => ks.map((k) => `${alias ? `${alias}.` : ''}${k}, `).join('');
  const same = (a: string, b: string) => ks.map((k) => ` AND ${a}.${k} IS NOT DISTINCT FROM ${b}.${k}`).join('');
  const select = answerDims.map((d, i) => `${v1Dimensions[d]!.key} AS a${i}, `).join('');
  const where = `f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.scope ?? ''}`;
  const out = s.dimensions.map((d, i) =>
    d === 'asset_name' ? `b.id AS k${i}` : `ge.a${answerDims.indexOf(d)} AS k${i}`,
  );
  const dims = s.dimensions.map((d) => (d === 'asset_name' ? brand : v1Dimensions[d]!));
  return `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category AND list_contains(analysis_types, 'visibility')),
ge AS (SELECT ${select}count(*) AS executions FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${where} ${ks.length ? 'GROUP BY ALL' : 'HAVING count(*) > 0'}),
mb AS (SELECT ${select}f.execution_id, f.asset_id, f.position FROM mentions f JOIN p ON p.id = f.prompt_id WHERE ${where}),
t AS (SELECT ${keyed()}count(*) AS total FROM mb GROUP BY ALL),
b AS (SELECT id FROM assets WHERE category_id = $category${perBrand ? '' : ' AND is_owned'}),
bm AS (
  SELECT ${keyed()}${perBrand ? 'asset_id, ' : ''}count(*) AS mentions, count(DISTINCT execution_id) AS mentioned, sum(position) AS pos
  FROM mb WHERE asset_id IN (SELECT id FROM b) GROUP BY ALL
),
g AS (
  SELECT ${[...out, 'coalesce(bm.mentioned, 0) / ge.executions AS m0', 'CASE WHEN coalesce(t.total, 0) = 0 THEN 0.0 ELSE coalesce(bm.mentions, 0) / t.total END AS m1', 'coalesce(bm.mentions, 0) AS m2', 'ge.executions AS m3', 'coalesce(bm.pos / NULLIF(bm.mentions, 0), 0) AS m4'].join(', ')}
  FROM ge ${perBrand ? `CROSS JOIN b LEFT JOIN bm ON bm.asset_id = b.id${same('bm', 'ge')}` : `LEFT JOIN bm ON TRUE${same('bm', 'ge')}`}
  LEFT JOIN t ON TRUE${same('t', 'ge')}
),
${v1Rows(dims, metrics.length)}`;
}

const floor = (s: Shape) => (e: Envelope) => tabularFloor(floorSql(s), e, s.dimensions.length, metrics.length);

const make = requestMaker(tabularShape(v1Window));
const request = (spec: Parameters<typeof make>[0], s: Shape, extra: Record<string, unknown> = {}) =>
  make({ ...spec, body: { metrics, dimensions: s.dimensions, ...extra } }, floor(s));
const promptDays: Shape = { dimensions: ['prompt', 'date', 'asset_name'] };
const inputRows = `SELECT (SELECT count(*) FROM executions WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE)
                        + (SELECT count(*) FROM mentions WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE)`;

export const visibilityV1Case: ReportCase = {
  report: 'visibility-v1',
  path: visibilityV1Report.path,
  streamPath: visibilityV1Report.streamPath!,
  plan: planProbe(visibilityV1Report),
  pageBody: tabularPageBody,
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      request(
        { id: `window-${d}`, label: `${d} d by brand`, days: d, windowSeries: true },
        { dimensions: ['asset_name'] },
      ),
    ),
    request(
      { id: 'date-model-brand-30-1k', label: '30 d by day × model × brand, 1,000-row page', days: 30 },
      { dimensions: ['date', 'model', 'asset_name'] },
      { pagination: { limit: 1000 } },
    ),
    request(
      { id: 'prompt-date-brand-60-1k', label: '60 d by prompt × day × brand, 1,000-row page 1', days: 60 },
      promptDays,
      { pagination: { limit: 1000 } },
    ),
    request(
      {
        id: 'prompt-date-brand-60-1k-p50',
        label: '60 d by prompt × day × brand, 1,000-row page 50',
        days: 60,
        page: 50,
        firstPageOf: 'prompt-date-brand-60-1k',
      },
      promptDays,
      { pagination: { limit: 1000 } },
    ),
    request(
      { id: 'prompt-date-brand-60-50k', label: '60 d by prompt × day × brand, 50,000-row page', days: 60 },
      promptDays,
      { pagination: { limit: 50_000 } },
    ),
    request(
      { id: 'owned-region-90', label: '90 d, own brands together, one region', days: 90 },
      { dimensions: [], scope: `\n    AND f.region_id = (SELECT id FROM regions WHERE name = 'United States')` },
      { filters: [{ field: 'region_name', operator: 'is', value: 'United States' }] },
    ),
    request(
      { id: 'stream-prompt-date-brand-60', label: 'stream: 60 d by prompt × day × brand', days: 60, stream: true },
      promptDays,
    ),
  ],
};
