import type { IterationParams } from '../lib/case.ts';
import { daySql } from './days.ts';
import { num, v2Page } from './json.ts';
import { dateKeys, rankWithinDate, refKeys, resolveKeys, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { daySlices, pageDays, windowParams } from './window.ts';

/**
 * v2 query fan-outs. Per row: its fan-outs (total_fanouts), their distinct queries (query_variations),
 * fan-outs per searching answer of its group without the query dimension (fanouts_per_execution), and
 * with query grouped, its share of that group's fan-outs; rank: total descending, then the dimensions'
 * names and ids, within the date bucket. The visibility prompts' answers.
 */

const visibilityPrompts = `SEMI JOIN prompts p ON p.id = f.prompt_id AND list_contains(p.analysis_types, 'visibility')`;
const keys = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.region_id::floor_region AS region, f.prompt_id::floor_prompt AS prompt`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_fan_queries',
    grain: 'category × day × model × region × prompt × query',
    measures: 'fan-outs',
    source: 'fanouts of the prompts carrying the visibility type',
    sql: `SELECT ${keys}, f.query::floor_query AS query, count(*)::INTEGER AS n FROM fanouts f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fan_day_queries',
    readBy:
      'requests without a model or region key or filter (window series, prompt × query, date × prompt), stream-prompt-query-date-365',
    grain: 'category × day × prompt × query',
    measures: 'fan-outs',
    source: 'fanouts of the prompts carrying the visibility type',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.prompt_id::floor_prompt AS prompt, f.query::floor_query AS query, count(*)::INTEGER AS n FROM fanouts f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fan_day_searching',
    readBy:
      'requests without a model or region key or filter (window series, prompt × query, date × prompt), stream-prompt-query-date-365',
    grain: 'category × day × prompt',
    measures: 'answers that searched the web',
    source: 'executions of the prompts carrying the visibility type',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.prompt_id::floor_prompt AS prompt, count(*)::INTEGER AS n FROM executions f ${visibilityPrompts} WHERE f.search_triggered GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fan_answers',
    grain: 'category × day × model × region × prompt',
    measures: 'answers, answers that searched the web',
    source: 'executions of the prompts carrying the visibility type',
    sql: `SELECT ${keys}, count(*)::INTEGER AS answers, (count(*) FILTER (f.search_triggered))::INTEGER AS n FROM executions f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
  },
];

const window = 'category_id = $1 AND d BETWEEN $2 AND $3';

interface Spec {
  readonly keys: readonly KeyDef[];
  readonly filter?: (env: FloorEnv) => string;
  /** The metrics after total_fanouts, in order (default: fanouts_per_execution, query_variations). */
  readonly metrics?: readonly ('fanouts_per_execution' | 'query_variations' | 'share')[];
  readonly limit?: number;
  readonly page?: number;
}

interface Group {
  readonly vals: (number | null)[];
  readonly n: number;
  readonly variations: number;
  /** The fan-outs and the searching answers of the group without query. */
  readonly fanouts: number;
  readonly searching: number;
}

/** Without a model or region key or filter, the day × prompt rollups answer: several times fewer rows. */
const byDayOf = (s: Spec) => !s.filter && s.keys.every((x) => x.field !== 'model' && x.field !== 'region');

/**
 * One statement per request: each group's fan-outs (and distinct queries), the fan-outs of its group
 * without query (a window sum) and its searching answers (a join of the answers rollup), and the models.
 */
function fanoutSql(s: Spec, where: string, withModels: boolean): string {
  const metrics = s.metrics ?? ['fanouts_per_execution', 'query_variations'];
  const keys = s.keys.map((x, i) => `${x.sql} AS k${i}`);
  const outer = s.keys.flatMap((x, i) => (x.field === 'query' ? [] : [`k${i}`]));
  const outerSql = s.keys.flatMap((x, i) => (x.field === 'query' ? [] : [`${x.sql} AS k${i}`]));
  const variations = metrics.includes('query_variations') ? 'count(DISTINCT query)::INTEGER' : '0';
  const partition = outer.length ? `PARTITION BY ${outer.join(', ')}` : '';
  const byDay = byDayOf(s);
  const searching = metrics.includes('fanouts_per_execution')
    ? `LEFT JOIN (SELECT ${[...outerSql, 'sum(n)::INTEGER AS searching'].join(', ')} FROM ${byDay ? 'floor_fan_day_searching' : 'floor_fan_answers'} WHERE ${where} GROUP BY ALL) a ${outer.length ? `USING (${outer.join(', ')})` : 'ON TRUE'}`
    : '';
  return `WITH q AS (SELECT ${[...keys, 'sum(n)::INTEGER AS n', `${variations} AS v`].join(', ')} FROM ${byDay ? 'floor_fan_day_queries' : 'floor_fan_queries'} WHERE ${where} GROUP BY ALL)
SELECT ${s.keys.map((_, i) => `q.k${i}`).join(', ')}, q.n, q.v, ${metrics.includes('share') ? `(sum(q.n) OVER (${partition}))::INTEGER` : '0'}, ${searching ? 'coalesce(a.searching, 0)' : '0'},
  ${withModels ? `(SELECT list(DISTINCT enum_code(model)) FROM floor_fan_answers WHERE ${where})` : 'NULL'}
FROM q ${searching}`;
}

/** Rows over days [from, to], in order (and for pages, the models of the scope). */
async function fanouts(
  env: FloorEnv,
  p: IterationParams,
  s: Spec,
  from: number,
  to: number,
  withModels: boolean,
  slice: { start: number; end: number },
): Promise<{ total: number; rows: string[]; models: number[] }> {
  const keys = await resolveKeys(env, p, s.keys);
  const where = `${window}${s.filter?.(env) ?? ''}`;
  const bind = [p.categoryId, from, to];
  const metrics = s.metrics ?? ['fanouts_per_execution', 'query_variations'];
  const c = await env.db.columns(fanoutSql(s, where, withModels), bind);
  const k = keys.length;
  const groups: Group[] = [];
  for (let i = 0; i < c[k]!.length; i++) {
    groups.push({
      vals: keys.map((_, j) => c[j]![i] as number | null),
      n: c[k]![i] as number,
      variations: c[k + 1]![i] as number,
      fanouts: c[k + 2]![i] as number,
      searching: c[k + 3]![i] as number,
    });
  }
  const models = withModels ? await modelsOf(env, where, bind, (c[k + 4]?.[0] as number[] | undefined) ?? null) : [];
  const metric = {
    fanouts_per_execution: (g: Group) => `"fanouts_per_execution":${num(g.searching === 0 ? null : g.n / g.searching)}`,
    query_variations: (g: Group) => `"query_variations":${g.variations}`,
    share: (g: Group) => `"share":${num(g.n / g.fanouts)}`,
  };
  const rows = rankWithinDate(keys, groups, (g) => -g.n, slice).map(
    ({ g, rank, prefix }) =>
      `{${prefix}"rank":${rank},"total_fanouts":${g.n}${metrics.map((m) => `,${metric[m](g)}`).join('')}}`,
  );
  return { total: groups.length, rows, models };
}

/** The models column came with the rows; a window without fan-outs has no rows to carry it. */
async function modelsOf(
  env: FloorEnv,
  where: string,
  bind: readonly unknown[],
  fromRows: number[] | null,
): Promise<number[]> {
  if (fromRows) return fromRows;
  const [m] = await env.db.columns(
    `SELECT DISTINCT enum_code(model) FROM floor_fan_answers WHERE ${where}`,
    bind as never,
  );
  return m as number[];
}

function pageFloor(s: Spec) {
  const limit = s.limit ?? 10;
  return page(async (env, p) => {
    const [, from, to] = windowParams(p) as [string, number, number];
    const offset = ((s.page ?? 1) - 1) * limit;
    const slice = { start: offset, end: offset + limit };
    if (s.keys[0] !== day) {
      const { total, rows, models } = await fanouts(env, p, s, from, to, true, slice);
      return v2Page(total, models.map((m) => env.dims.models[m]!.name).sort(), rows);
    }
    // Groups led by the day: count each day's groups, then aggregate and rank only the page's days.
    const where = `${window}${s.filter?.(env) ?? ''}`;
    const distinct = s.keys.map((x, i) => `${x.sql} AS k${i}`).join(', ');
    const days = await pageDays(
      env,
      `SELECT k0, count(*)::INTEGER FROM (SELECT DISTINCT ${distinct} FROM ${byDayOf(s) ? 'floor_fan_day_queries' : 'floor_fan_queries'} WHERE ${where}) GROUP BY k0 ORDER BY k0`,
      [p.categoryId, from, to],
      slice,
    );
    const models = (await modelsOf(env, where, [p.categoryId, from, to], null))
      .map((m) => env.dims.models[m]!.name)
      .sort();
    if (days.from === null) return v2Page(days.total, models, []);
    const { rows } = await fanouts(env, p, s, days.from, days.to, false, {
      start: offset - days.before,
      end: offset + limit - days.before,
    });
    return v2Page(days.total, models, rows);
  });
}

/**
 * The prompt × query × day stream: per slice of days, one statement ranks each day's rows in SQL (fan-outs
 * descending, then the prompt's text and id by a rank of the category's prompts, then the query, whose
 * codes are in text order) with each row's searching answers of its prompt and day, in row order; JS
 * only writes the rows.
 */
const promptQueryDaySql = `WITH q AS (SELECT d, prompt, query, n FROM floor_fan_day_queries WHERE ${window}),
a AS (SELECT d, prompt, n AS searching FROM floor_fan_day_searching WHERE ${window}),
pr AS (SELECT TRY_CAST(id AS floor_prompt) AS prompt, row_number() OVER (ORDER BY prompt, id) AS ord FROM prompts WHERE category_id = $1)
SELECT enum_code(q.prompt), enum_code(q.query), q.d, q.n, coalesce(a.searching, 0), row_number() OVER (PARTITION BY q.d ORDER BY q.n DESC, pr.ord, q.query)::INTEGER AS rank
FROM q LEFT JOIN a USING (d, prompt) LEFT JOIN pr USING (prompt) ORDER BY q.d, rank`;

function promptQueryDayStream(sliceDays: number) {
  return stream(async function* (env, p) {
    const [pk, qk, dk] = await resolveKeys(env, p, [prompt, query, dateKeys.day]);
    const [, start, end] = windowParams(p) as [string, number, number];
    for (const [from, to] of daySlices(start, end, sliceDays)) {
      const [pc, qc, d, n, searching, rank] = (await env.db.columns(promptQueryDaySql, [
        p.categoryId,
        from,
        to,
      ])) as number[][];
      const rows: string[] = new Array(pc!.length);
      for (let i = 0; i < rows.length; i++) {
        const fpe = searching![i] === 0 ? 'null' : num(n![i]! / searching![i]!);
        rows[i] =
          `{${pk!.part(pc![i]!)},${qk!.part(qc![i]!)},${dk!.part(d![i]!)},"rank":${rank![i]},"total_fanouts":${n![i]},"fanouts_per_execution":${fpe}}`;
      }
      yield rows;
    }
  });
}

const prompt: KeyDef = { ...refKeys.prompt, flat: true };
const query: KeyDef = {
  field: 'query',
  sql: 'enum_code(query)',
  kind: 'text',
  enumName: 'floor_query',
  column: 'query',
};
const unitedStates = (env: FloorEnv) =>
  ` AND region = '${env.dims.regions[env.dims.regionCode.get('United States')!]!.id}'`;
const { day, week } = dateKeys;

export const queryFanoutsFloors: ReportFloors = {
  report: 'query-fanouts',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({ keys: [prompt] })])),
    'prompt-query-30': pageFloor({ keys: [prompt, query], metrics: ['share'] }),
    'model-30': pageFloor({ keys: [refKeys.model] }),
    'week-model-90': pageFloor({ keys: [week, refKeys.model], limit: 50 }),
    'prompt-region-30': pageFloor({ keys: [prompt], filter: unitedStates }),
    'date-prompt-30': pageFloor({ keys: [day, prompt] }),
    'date-prompt-30-p50': pageFloor({ keys: [day, prompt], page: 50 }),
    'stream-prompt-query-date-365': promptQueryDayStream(92),
  }),
};
