import { citationsReport } from '../../src/reports/insights-v2/citations/citations.ts';
import { citationsDaily } from '../../src/reports/insights/citations-rollup.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';
import {
  keyCols,
  keyFields,
  keyOrder,
  keyOutputs,
  keys,
  nameJoins,
  partitionBy,
  sameKeys,
  selectKeys,
  type FloorKey,
} from '../lib/v2-keys.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * v2 citations: the window series (domains), pages (URLs) page 1 and page 50, domains by model and by
 * day, owned domains, an answer-level and a citation-level filter together, and a stream of pages by
 * day.
 *
 * The floor: the citations of the visibility prompts' answers in the window; per partition and model,
 * each entity's count over all the citations in scope; citation_share the mean over the partition's
 * models; ranked by count, share, then the entity.
 */

interface Shape {
  readonly page?: boolean;
  readonly by?: readonly FloorKey[];
  /** An answer-level predicate (it scopes the shares' denominators too). */
  readonly answers?: string;
  /** A citation-level predicate: which citations count. */
  readonly cited?: string;
  readonly owned?: boolean;
}

function floorSql(s: Shape): string {
  const ks = s.by ?? [];
  return `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category AND list_contains(analysis_types, 'visibility')),
c AS (
  SELECT ${selectKeys(ks)}f.model_id, ${s.page ? 'f.url' : 'f.root_domain'} AS entity, f.citation_category, ${s.cited ?? 'TRUE'} AS hit
  FROM citations f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.answers ?? ''}
),
den AS (SELECT ${keyCols(ks)}model_id, count(*) AS total FROM c GROUP BY ALL),
mi AS (SELECT ${keyCols(ks)}count(*) AS models FROM den GROUP BY ALL),
num AS (SELECT ${keyCols(ks)}entity, model_id, count(*) AS n, bool_or(citation_category = 'owned') AS owned FROM c WHERE hit GROUP BY ALL),
scored AS (
  SELECT ${keyCols(ks, 'num')}num.entity, sum(num.n) AS count, list_sum(list_sort(list(num.n / den.total))) / any_value(mi.models) AS share, bool_or(num.owned) AS owned
  FROM num JOIN den ON den.model_id = num.model_id${sameKeys(ks, 'num', 'den')} JOIN mi ON TRUE${sameKeys(ks, 'num', 'mi')}
  GROUP BY ALL
),
ranked AS (SELECT *, row_number() OVER (${partitionBy(ks)}ORDER BY count DESC, share DESC, entity) AS rank FROM scored),
rows AS (
  SELECT row_number() OVER (ORDER BY ${[...keyOrder(ks, 'r'), 'r.rank'].join(', ')}) AS ord, 0 AS seq, ${keyOutputs(ks, 'r')}r.entity, r.rank, r.count, r.share
  FROM ranked r
  ${nameJoins(ks, 'r')}
  WHERE ${s.owned ? 'r.owned' : 'TRUE'}
)`;
}

const row = (s: Shape) => (r: Row) => ({
  ...keyFields(s.by ?? [], r),
  [s.page ? 'page' : 'domain']: r.entity,
  rank: r.rank,
  count: r.count,
  citation_share: r.share,
});

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: modelsHead('c') }, row(s));

const make = requestMaker(v2Shape(10));
const earnedMedia = {
  and: [
    { field: 'model', op: 'in', value: ['ChatGPT', 'Perplexity'] },
    { field: 'citation_category', op: 'is', value: 'earned_media' },
  ],
};
const inputRows = `SELECT count(*) FROM citations WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const citationsCase: ReportCase = {
  report: 'citations',
  path: citationsReport.path,
  streamPath: citationsReport.streamPath!,
  plan: planProbe(citationsReport),
  pageBody: pagedPageBody(citationsReport),
  setup: warmCategoryRollups(citationsDaily),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, domains, page 1`, days: d, windowSeries: true }, floor({})),
    ),
    make(
      { id: 'page-30', label: '30 d, pages, page 1', days: 30, body: { group_by: ['page'] } },
      floor({ page: true }),
    ),
    make(
      {
        id: 'page-30-p50',
        label: '30 d, pages, page 50',
        days: 30,
        page: 50,
        firstPageOf: 'page-30',
        body: { group_by: ['page'] },
      },
      floor({ page: true }),
    ),
    make(
      { id: 'model-30', label: '30 d, domains by model', days: 30, body: { group_by: ['model'] } },
      floor({ by: [keys.model] }),
    ),
    make(
      { id: 'date-7', label: '7 d, domains by day, 50 rows', days: 7, body: { group_by: ['date'], limit: 50 } },
      floor({ by: [keys.day] }),
    ),
    make({ id: 'owned-90', label: '90 d, owned domains', days: 90, body: { scope: 'owned' } }, floor({ owned: true })),
    make(
      { id: 'filter-90', label: '90 d, two models, earned media', days: 90, body: { filter: earnedMedia } },
      floor({
        answers: `\n    AND f.model_id IN (SELECT id FROM models WHERE name IN ('ChatGPT', 'Perplexity'))`,
        cited: `f.citation_category = 'earned_media'`,
      }),
    ),
    make(
      {
        id: 'stream-page-date-90',
        label: 'stream: 90 d, pages by day',
        days: 90,
        stream: true,
        body: { group_by: ['page', 'date'] },
      },
      floor({ page: true, by: [keys.day] }),
    ),
  ],
};
