import { queryFanoutsReport } from '../../src/reports/insights-v2/query-fanouts.ts';
import { fanoutsDaily } from '../../src/reports/insights/fanouts-rollup.ts';
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
  sameKeys,
  selectKeys,
  type FloorKey,
} from '../lib/v2-keys.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * v2 query fan-outs: the window series (by prompt, the default), by prompt × query with shares, by
 * model, by week × model, a region filter, by day × prompt page 1 and page 50, and a stream of a year
 * by prompt × query × day.
 *
 * The floor: the fan-outs of the visibility prompts' answers per group, their distinct queries, and
 * per execution that searched in the group without the query; ranked by fan-outs, then the groups'
 * names (the prompt's text) and ids, within each day when grouped by day.
 */

const query: FloorKey = { name: 'query', expr: 'f.query', text: true };

interface Shape {
  readonly by: readonly FloorKey[];
  readonly share?: boolean;
  readonly where?: string;
}

function floorSql(s: Shape): string {
  const ks = s.by;
  const runs = ks.filter((k) => k !== query);
  const dated = ks.some((k) => k.name === 'date');
  const group = (list: readonly FloorKey[]) => (list.length ? 'GROUP BY ALL' : 'HAVING count(*) > 0');
  const scope = `f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.where ?? ''}`;
  return `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category AND list_contains(analysis_types, 'visibility')),
fo AS (SELECT ${selectKeys(ks)}f.query AS q FROM fanouts f JOIN p ON p.id = f.prompt_id WHERE ${scope}),
runs AS (SELECT ${selectKeys(runs)}f.model_id, f.search_triggered FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${scope}),
n AS (SELECT ${keyCols(ks)}count(*) AS fanouts, count(DISTINCT q) AS variations FROM fo ${group(ks)}),
xe AS (SELECT ${keyCols(runs)}count(*) AS executions FROM runs WHERE search_triggered ${group(runs)}),
pg AS (SELECT ${keyCols(runs)}count(*) AS fanouts FROM fo ${group(runs)}),
ranked AS (
  SELECT n.*, n.fanouts / NULLIF(xe.executions, 0) AS per_execution, n.fanouts / pg.fanouts AS share,
         row_number() OVER (${dated ? 'PARTITION BY n.k_date ' : ''}ORDER BY ${['n.fanouts DESC', ...keyOrder(ks, 'n')].join(', ')}) AS rank
  FROM n LEFT JOIN xe ON TRUE${sameKeys(runs, 'n', 'xe')} LEFT JOIN pg ON TRUE${sameKeys(runs, 'n', 'pg')}
  ${nameJoins(ks, 'n')}
),
rows AS (
  SELECT row_number() OVER (ORDER BY ${dated ? 'r.k_date, ' : ''}r.rank) AS ord, 0 AS seq, ${keyOutputs(ks, 'r')}r.rank, r.fanouts, r.per_execution, r.variations, r.share
  FROM ranked r
  ${nameJoins(ks, 'r')}
)`;
}

function row(s: Shape) {
  const byQuery = s.by.includes(query);
  return (r: Row) => {
    const fields = keyFields(s.by, r) as Record<string, { id: unknown; name: unknown } | null>;
    const prompt = s.by.includes(keys.prompt) ? { prompt: fields.prompt?.name ?? null, prompt_id: r.k_prompt } : {};
    return {
      ...fields,
      ...prompt,
      rank: r.rank,
      total_fanouts: r.fanouts,
      ...(s.share ? {} : { fanouts_per_execution: r.per_execution }),
      ...(byQuery ? {} : { query_variations: r.variations }),
      ...(s.share ? { share: r.share } : {}),
    };
  };
}

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: modelsHead('runs') }, row(s));

const make = requestMaker(v2Shape(10));
const inputRows = `SELECT count(*) FROM fanouts WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const queryFanoutsCase: ReportCase = {
  report: 'query-fanouts',
  path: queryFanoutsReport.path,
  streamPath: queryFanoutsReport.streamPath!,
  plan: planProbe(queryFanoutsReport),
  pageBody: pagedPageBody(queryFanoutsReport),
  setup: warmCategoryRollups(fanoutsDaily),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make(
        { id: `window-${d}`, label: `${d} d by prompt, page 1`, days: d, windowSeries: true },
        floor({ by: [keys.prompt] }),
      ),
    ),
    make(
      {
        id: 'prompt-query-30',
        label: '30 d by prompt × query, shares',
        days: 30,
        body: { group_by: ['prompt', 'query'], metrics: ['total_fanouts', 'share'] },
      },
      floor({ by: [keys.prompt, query], share: true }),
    ),
    make(
      { id: 'model-30', label: '30 d by model', days: 30, body: { group_by: ['model'] } },
      floor({ by: [keys.model] }),
    ),
    make(
      {
        id: 'week-model-90',
        label: '90 d by week × model, 50 rows',
        days: 90,
        body: { group_by: ['date', 'model'], interval: 'week', limit: 50 },
      },
      floor({ by: [keys.week, keys.model] }),
    ),
    make(
      {
        id: 'prompt-region-30',
        label: '30 d by prompt, one region',
        days: 30,
        body: { filter: { field: 'region', op: 'is', value: 'United States' } },
      },
      floor({
        by: [keys.prompt],
        where: `\n    AND f.region_id = (SELECT id FROM regions WHERE name = 'United States')`,
      }),
    ),
    make(
      { id: 'date-prompt-30', label: '30 d by day × prompt, page 1', days: 30, body: { group_by: ['date', 'prompt'] } },
      floor({ by: [keys.day, keys.prompt] }),
    ),
    make(
      {
        id: 'date-prompt-30-p50',
        label: '30 d by day × prompt, page 50',
        days: 30,
        page: 50,
        firstPageOf: 'date-prompt-30',
        body: { group_by: ['date', 'prompt'] },
      },
      floor({ by: [keys.day, keys.prompt] }),
    ),
    make(
      {
        id: 'stream-prompt-query-date-365',
        label: 'stream: 365 d by prompt × query × day',
        days: 365,
        stream: true,
        body: { group_by: ['prompt', 'query', 'date'] },
      },
      floor({ by: [keys.prompt, query, keys.day] }),
    ),
  ],
};
