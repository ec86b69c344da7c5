import type { DuckDBValue } from '@duckdb/node-api';
import { visibilityRollups } from '../../src/reports/insights/visibility-rollup.ts';
import { visibilityReport } from '../../src/reports/insights-v2/visibility/visibility.ts';
import type { BenchRequest, OldFloor, IterationParams, ReportCase } from '../lib/case.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { arqueroVisibility } from '../peers/visibility-arquero.ts';
import { polarsVisibility } from '../peers/visibility-polars.ts';

/**
 * v2 visibility: the window series (1 to 365 days, ungrouped, against the peers), grouped and filtered
 * requests, page 1 against page 50, and two streams of more than 50,000 rows from scale 1 up (one the
 * daily rollup can answer, one it cannot). Pages hold at most 50 rows (the spec's limit), so the 1,000-
 * and 50,000-row pages of the mix do not apply to this report.
 *
 * The floor is written by hand, not by the engine's compiler: per group, executions and each brand's
 * mentions over the prompts of the category that track visibility, every brand of the category ranked
 * best first (name, then id, break ties), rows ordered by group then rank.
 */

interface Key {
  readonly dim: 'date' | 'model' | 'topic' | 'prompt';
  /** The key over a fact row `f` and its prompt `p`. */
  readonly expr: string;
  /** Dimension table and its display column, for `{id, name}` keys. */
  readonly table?: { name: string; column: string };
}

const keys = {
  day: { dim: 'date', expr: 'f.day' },
  week: { dim: 'date', expr: `CAST(date_trunc('week', f.day) AS DATE)` },
  model: { dim: 'model', expr: 'f.model_id', table: { name: 'models', column: 'name' } },
  topic: { dim: 'topic', expr: 'p.topic_id', table: { name: 'topics', column: 'name' } },
  prompt: { dim: 'prompt', expr: 'f.prompt_id', table: { name: 'prompts', column: 'prompt' } },
} satisfies Record<string, Key>;

const pageSize = 10;

function floorSql(groups: readonly Key[], where: string, mode: 'page' | 'stream'): string {
  const k = groups.map((g) => `k_${g.dim}`);
  const keySelect = groups.map((g) => `${g.expr} AS k_${g.dim}, `).join('');
  const keyList = k.map((c) => `${c}, `).join('');
  const on = (a: string, b: string) => k.map((c) => ` AND ${a}.${c} IS NOT DISTINCT FROM ${b}.${c}`).join('');
  const joins = groups
    .filter((g) => g.table)
    .map((g) => `LEFT JOIN ${g.table!.name} n_${g.dim} ON n_${g.dim}.id = r.k_${g.dim}`)
    .join('\n');
  const outKeys = groups
    .map((g) =>
      g.table
        ? `r.k_${g.dim}, n_${g.dim}.${g.table.column} AS name_${g.dim}, `
        : `strftime(r.k_${g.dim}, '%Y-%m-%d') AS k_${g.dim}, `,
    )
    .join('');
  const order = [
    ...groups.map((g) =>
      g.table ? `n_${g.dim}.${g.table.column} NULLS LAST, r.k_${g.dim} NULLS LAST` : `r.k_${g.dim}`,
    ),
    'r.rank',
  ].join(', ');
  const body = `WITH p AS (
  SELECT id, topic_id FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, 'visibility')
),
em AS (
  SELECT ${keySelect}f.model_id, count(*) AS n
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $1 AND f.day BETWEEN $2::DATE AND $3::DATE${where}
  GROUP BY ALL
),
g AS (SELECT ${keyList}sum(n) AS executions FROM em GROUP BY ALL),
m AS (
  SELECT ${keySelect}f.asset_id, count(*) AS n, sum(f.position) AS pos
  FROM mentions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $1 AND f.day BETWEEN $2::DATE AND $3::DATE${where}
  GROUP BY ALL
),
t AS (SELECT ${keyList}sum(n) AS total FROM m GROUP BY ALL),
scored AS (
  SELECT g.*, a.id AS asset_id, a.name, a.is_owned,
         coalesce(m.n, 0) / g.executions AS visibility_score,
         CASE WHEN coalesce(t.total, 0) = 0 THEN 0.0 ELSE coalesce(m.n, 0) / t.total END AS share_of_voice,
         m.pos / m.n AS average_position
  FROM g JOIN assets a ON a.category_id = $1
  LEFT JOIN m ON m.asset_id = a.id${on('m', 'g')}
  LEFT JOIN t ON TRUE${on('t', 'g')}
),
ranked AS (
  SELECT *, row_number() OVER (${k.length ? `PARTITION BY ${k.join(', ')} ` : ''}ORDER BY visibility_score DESC, name, asset_id) AS rank FROM scored
),
rows AS (
  SELECT row_number() OVER (ORDER BY ${order}) AS ord, ${outKeys}r.name, r.is_owned, r.rank, r.visibility_score, r.share_of_voice, r.average_position
  FROM ranked r
  ${joins}
)`;
  if (mode === 'stream') return `${body}\nSELECT * FROM rows ORDER BY ord`;
  return `${body}
SELECT 0 AS ord, (SELECT count(*) FROM rows) AS total, (SELECT coalesce(list(DISTINCT mo.name ORDER BY mo.name), []) FROM em JOIN models mo ON mo.id = em.model_id) AS models
UNION ALL BY NAME
SELECT * FROM rows WHERE ord > $4 AND ord <= $4 + ${pageSize}
ORDER BY ord`;
}

function floorRow(groups: readonly Key[], r: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const g of groups) {
    const id = r[`k_${g.dim}`];
    row[g.dim] = g.table ? (id === null ? null : { id, name: r[`name_${g.dim}`] }) : id;
  }
  return {
    ...row,
    asset: { name: r.name, owned: r.is_owned },
    rank: Number(r.rank),
    visibility_score: r.visibility_score,
    share_of_voice: r.share_of_voice,
    average_position: r.average_position,
  };
}

function floor(groups: readonly Key[], where: string, kind: 'page' | 'stream', page: number): OldFloor {
  return {
    sql: floorSql(groups, where, kind),
    params: (p: IterationParams): DuckDBValue[] => [
      p.categoryId,
      p.startDate,
      p.endDate,
      ...(kind === 'page' ? [(page - 1) * pageSize] : []),
    ],
    answer: (rows) => {
      if (kind === 'stream') return rows.map((r) => floorRow(groups, r));
      const [head, ...data] = rows;
      return { total: Number(head!.total), models: head!.models, rows: data.map((r) => floorRow(groups, r)) };
    },
  };
}

const pageAnswer = (json: unknown) => {
  const { info, data } = json as { info: { total_results: number; models: string[] }; data: unknown[] };
  return { total: info.total_results, models: info.models, rows: data };
};

const windowBody = (p: IterationParams) => ({
  category_id: p.categoryId,
  start_date: p.startDate,
  end_date: p.endDate,
  scope: 'all',
});

const regionsAndModels = {
  wire: {
    and: [
      { field: 'region', op: 'in', value: ['United States', 'Canada'] },
      { field: 'model', op: 'not_in', value: ['Grok'] },
    ],
  },
  sql: `\n    AND f.region_id IN (SELECT id FROM regions WHERE name IN ('United States', 'Canada'))\n    AND f.model_id NOT IN (SELECT id FROM models WHERE name = 'Grok')`,
};
const oneRegion = {
  wire: { field: 'region', op: 'is', value: 'United States' },
  sql: `\n    AND f.region_id = (SELECT id FROM regions WHERE name = 'United States')`,
};

function request(
  id: string,
  label: string,
  windowDays: number,
  groups: readonly Key[],
  options: {
    interval?: 'week';
    filter?: { wire: unknown; sql: string };
    page?: number;
    firstPageOf?: string;
    stream?: boolean;
    windowSeries?: boolean;
  } = {},
): BenchRequest {
  const kind = options.stream ? 'stream' : 'page';
  return {
    id,
    label,
    kind,
    windowDays,
    grouped: groups.length > 0,
    filtered: options.filter !== undefined,
    page: options.page ?? 1,
    ...(options.firstPageOf ? { firstPageOf: options.firstPageOf } : {}),
    windowSeries: options.windowSeries ?? false,
    body: (p) => ({
      ...windowBody(p),
      ...(groups.length ? { group_by: groups.map((g) => g.dim) } : {}),
      ...(options.interval ? { interval: options.interval } : {}),
      ...(options.filter ? { filter: options.filter.wire } : {}),
    }),
    oldFloor: floor(groups, options.filter?.sql ?? '', kind, options.page ?? 1),
    engineAnswer: kind === 'stream' ? (events) => events : pageAnswer,
    ...(options.windowSeries ? { peers: [arqueroVisibility, polarsVisibility] } : {}),
  };
}

export const visibilityCase: ReportCase = {
  report: 'visibility',
  path: visibilityReport.path,
  streamPath: visibilityReport.streamPath!,
  plan: planProbe(visibilityReport),
  pageBody: pagedPageBody(visibilityReport),
  setup: async (engine, dataset) => {
    for (const r of visibilityRollups)
      await engine.core.rollups.warm(r.def, [...new Set(dataset.categories.map((c) => c.categoryId))]);
  },
  inputRows: {
    sql: `SELECT (SELECT count(*) FROM executions WHERE category_id = $1 AND day BETWEEN $2::DATE AND $3::DATE)
              + (SELECT count(*) FROM mentions WHERE category_id = $1 AND day BETWEEN $2::DATE AND $3::DATE)`,
    params: (p) => [p.categoryId, p.startDate, p.endDate],
  },
  requests: () => [
    ...[1, 7, 30, 90, 365].map((d) =>
      request(`window-${d}`, `${d} d, all brands, page 1`, d, [], { windowSeries: true }),
    ),
    request('date-30', '30 d by day', 30, [keys.day]),
    request('date-model-30', '30 d by day × model, page 1', 30, [keys.day, keys.model]),
    request('date-model-30-p50', '30 d by day × model, page 50', 30, [keys.day, keys.model], {
      page: 50,
      firstPageOf: 'date-model-30',
    }),
    request('model-filter-90', '90 d by model, region and model filter', 90, [keys.model], {
      filter: regionsAndModels,
    }),
    request('week-365', '365 d by week', 365, [keys.week], { interval: 'week' }),
    request('topic-filter-365', '365 d by topic, one region', 365, [keys.topic], { filter: oneRegion }),
    request('stream-date-model-365', 'stream: 365 d by day × model', 365, [keys.day, keys.model], { stream: true }),
    request('stream-date-prompt-30', 'stream: 30 d by day × prompt', 30, [keys.day, keys.prompt], { stream: true }),
  ],
};
