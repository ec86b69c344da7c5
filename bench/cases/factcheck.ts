import { factcheckReport } from '../../src/reports/insights-v2/factcheck/factcheck.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, ref, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
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
  selectKeys,
  type FloorKey,
} from '../lib/v2-keys.ts';

/**
 * v2 fact-check scores: the window series (one row), by model, by week × topic, by theme with a model
 * filter, by cited page, by day × prompt page 1 and page 50, and a stream of a year by day × prompt
 * (about 7,000 rows at every scale: a stream of 50,000 rows needs more prompts than a category has).
 *
 * The floor: accurate and inaccurate claim occurrences of the fact-check answers per group; a cited
 * page counts every occurrence of the answers citing it, with the page's citation category.
 */

const theme: FloorKey = { name: 'theme', expr: 'cc.theme', text: true };
const citation: FloorKey = { name: 'citation', expr: 'ct.url', text: true };

interface Shape {
  readonly by: readonly FloorKey[];
  readonly where?: string;
}

function floorSql(s: Shape): string {
  const ks = s.by;
  const cited = ks.includes(citation);
  const scope = `f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.where ?? ''}`;
  const order = cited ? ['r.accurate + r.inaccurate DESC', 'r.k_citation'] : ks.length ? keyOrder(ks, 'r') : ['1'];
  return `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category AND list_contains(analysis_types, 'accuracy')),
e AS (SELECT f.model_id FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${scope}),
o AS (
  SELECT ${selectKeys(ks)}f.accurate
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id${ks.includes(theme) ? ' JOIN claim_clusters cc ON cc.id = f.cluster_id' : ''}${
    cited
      ? `\n  JOIN (SELECT DISTINCT execution_id, url FROM citations WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE) ct ON ct.execution_id = f.execution_id`
      : ''
  }
  WHERE ${scope}
),
s AS (SELECT ${keyCols(ks)}count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o ${ks.length ? 'GROUP BY ALL' : 'HAVING count(*) > 0'}),
rows AS (
  SELECT row_number() OVER (ORDER BY ${order.join(', ')}) AS ord, 0 AS seq, ${keyOutputs(ks, 'r')}r.accurate, r.inaccurate${
    ks.includes(theme)
      ? ', (SELECT min(id) FROM themes t WHERE t.category_id = $category AND t.name = r.k_theme) AS theme_id'
      : ''
  }${cited ? ', cat.category AS citation_category' : ''}
  FROM s r
  ${nameJoins(ks, 'r')}${
    cited
      ? `\n  LEFT JOIN (SELECT url, min(citation_category) AS category FROM citations WHERE category_id = $category AND url IN (SELECT k_citation FROM s) GROUP BY url) cat ON cat.url = r.k_citation`
      : ''
  }
)`;
}

const row = (s: Shape) => (r: Row) => ({
  ...keyFields(s.by, r),
  ...(s.by.includes(theme) ? { theme: ref(r.k_theme === null ? null : r.theme_id, r.k_theme) } : {}),
  ...(s.by.includes(citation) ? { citation: { url: r.k_citation, citation_category: r.citation_category } } : {}),
  accuracy: (r.accurate as number) / ((r.accurate as number) + (r.inaccurate as number)),
  accurate: r.accurate,
  inaccurate: r.inaccurate,
});

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: modelsHead('e') }, row(s));

const make = requestMaker(v2Shape(10));
const inputRows = `SELECT count(*) FROM claim_occurrences WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const factcheckCase: ReportCase = {
  report: 'factcheck',
  path: factcheckReport.path,
  streamPath: factcheckReport.streamPath!,
  plan: planProbe(factcheckReport),
  pageBody: pagedPageBody(factcheckReport),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, all answers`, days: d, windowSeries: true }, floor({ by: [] })),
    ),
    make(
      { id: 'model-30', label: '30 d by model', days: 30, body: { group_by: ['model'] } },
      floor({ by: [keys.model] }),
    ),
    make(
      {
        id: 'week-topic-90',
        label: '90 d by week × topic, 50 rows',
        days: 90,
        body: { group_by: ['date', 'topic'], interval: 'week', limit: 50 },
      },
      floor({ by: [keys.week, keys.topic] }),
    ),
    make(
      {
        id: 'theme-models-30',
        label: '30 d by theme, two models',
        days: 30,
        body: { group_by: ['theme'], filter: { field: 'model', op: 'in', value: ['ChatGPT', 'Perplexity'] } },
      },
      floor({
        by: [theme],
        where: `\n    AND f.model_id IN (SELECT id FROM models WHERE name IN ('ChatGPT', 'Perplexity'))`,
      }),
    ),
    make(
      { id: 'citation-30', label: '30 d by cited page', days: 30, body: { group_by: ['citation'] } },
      floor({ by: [citation] }),
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
      {
        id: 'stream-date-prompt-365',
        label: 'stream: 365 d by day × prompt',
        days: 365,
        stream: true,
        body: { group_by: ['date', 'prompt'] },
      },
      floor({ by: [keys.day, keys.prompt] }),
    ),
  ],
};
