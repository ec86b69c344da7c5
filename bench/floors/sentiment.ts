import type { IterationParams } from '../lib/case.ts';
import { daySql, isoSecond } from './days.ts';
import { num, refJson, v2Page } from './json.ts';
import { dateKeys, groupKey, rankWithinDate, refKeys, resolveKeys, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { pageDays, windowParams } from './window.ts';

/**
 * v2 sentiment of one brand: per row, positive = 100 × positive assessments / assessments of the brand,
 * negative = 100 − positive; rank: most assessments first, then the dimensions' names and ids, within the
 * date bucket; competitor rows score each other brand of the category on its own assessments. The
 * sentiment prompts' answers.
 */

const sentimentPrompts = `JOIN prompts p ON p.id = f.prompt_id AND list_contains(p.analysis_types, 'sentiment')`;
const measures = `(count(*) FILTER (f.sentiment_type = 'positive'))::INTEGER AS pos, count(*)::INTEGER AS n`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_sent_dmr',
    readBy: 'window series, theme-30, competitor-30, model-regions-90 (and every request’s models)',
    grain: 'category × day × model × region × brand × theme',
    measures: 'positive assessments, assessments',
    source: 'sentiments of the prompts carrying the sentiment type',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.region_id::floor_region AS region, f.asset_id::floor_asset AS asset, f.theme_id::floor_theme AS theme, ${measures}
FROM sentiments f ${sentimentPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_sent_dp',
    readBy: 'date-prompt-90, date-prompt-90-p50',
    grain: 'category × day × prompt × brand',
    measures: 'positive assessments, assessments',
    source: 'sentiments of the prompts carrying the sentiment type',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.prompt_id::floor_prompt AS prompt, f.asset_id::floor_asset AS asset, ${measures} FROM sentiments f ${sentimentPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_sent_runs',
    readBy: 'stream-run-365',
    grain: 'category × answer (run) × brand',
    measures: 'positive assessments, assessments; the answer’s day and instant',
    source: 'sentiments of the prompts carrying the sentiment type',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.execution_id AS run, epoch(f.executed_at)::INTEGER AS instant, f.asset_id::floor_asset AS asset, ${measures}
FROM sentiments f ${sentimentPrompts} GROUP BY ALL ORDER BY category_id, d`,
  },
];

const window = 'category_id = $1 AND d BETWEEN $2 AND $3';

const brandOf = (env: FloorEnv, p: IterationParams) => env.dims.brands(p.categoryId).find((b) => b.name === p.asset)!;

const scoreJson = (prefix: string, rank: number, pos: number, n: number) => {
  const positive = (100 * pos) / n;
  return `{${prefix}"rank":${rank},"positive_sentiment":${num(positive)},"negative_sentiment":${num(100 - positive)}}`;
};

interface Spec {
  readonly table: 'floor_sent_dmr' | 'floor_sent_dp';
  readonly keys: readonly KeyDef[];
  readonly filter?: (env: FloorEnv) => string;
  /** Rows are the other brands of the category instead of the brand's groups. */
  readonly competitors?: boolean;
  readonly limit?: number;
  readonly page?: number;
}

function pageFloor(s: Spec) {
  const limit = s.limit ?? 10;
  return page(async (env, p) => {
    const brand = brandOf(env, p);
    const where = `${window}${s.filter?.(env) ?? ''}`;
    const keys = await resolveKeys(env, p, s.keys);
    // The models of the rows' assessments: the brand's, or with competitors the other brands'.
    const models = async () => {
      const [m] = await env.db.columns(
        `SELECT DISTINCT enum_code(model) FROM floor_sent_dmr WHERE ${where} AND asset ${s.competitors ? '<>' : '='} '${brand.id}'`,
        windowParams(p),
      );
      return (m as number[]).map((x) => env.dims.models[x]!.name).sort();
    };
    if (s.competitors) {
      const [a, pos, n] = await env.db.columns(
        `SELECT enum_code(asset), sum(pos)::INTEGER, sum(n)::INTEGER FROM floor_sent_dmr WHERE ${where} AND asset <> '${brand.id}' GROUP BY ALL`,
        windowParams(p),
      );
      const brands = env.dims.brands(p.categoryId);
      const order = new Map(brands.map((b, i) => [b.code, i]));
      const rows = a!
        .map((code, i) => ({ code: code as number, pos: pos![i] as number, n: n![i] as number }))
        .filter((r) => order.has(r.code))
        .sort((x, y) => y.n - x.n || order.get(x.code)! - order.get(y.code)!)
        .map((r, i) =>
          scoreJson(
            `"competitor":${refJson(env.dims.assets[r.code]!.id, env.dims.assets[r.code]!.name)},`,
            i + 1,
            r.pos,
            r.n,
          ),
        );
      return v2Page(rows.length, await models(), rows.slice(0, limit));
    }
    const k = keys.length;
    const offset = ((s.page ?? 1) - 1) * limit;
    let slice = { start: offset, end: offset + limit };
    let bind = windowParams(p);
    let total: number | null = null;
    if (s.keys[0] === dateKeys.day) {
      // Groups led by the day: count each day's groups, then aggregate and rank only the page's days.
      const distinct = s.keys.map((x, i) => `${x.sql} AS k${i}`).join(', ');
      const days = await pageDays(
        env,
        `SELECT k0, count(*)::INTEGER FROM (SELECT DISTINCT ${distinct} FROM ${s.table} WHERE ${where} AND asset = '${brand.id}') GROUP BY k0 ORDER BY k0`,
        bind,
        slice,
      );
      if (days.from === null) return v2Page(days.total, await models(), []);
      [total, bind, slice] = [
        days.total,
        [p.categoryId, days.from, days.to],
        { start: offset - days.before, end: offset + limit - days.before },
      ];
    }
    const c = await env.db.columns(
      `SELECT ${[...s.keys.map((x) => x.sql), 'sum(pos)::INTEGER', 'sum(n)::INTEGER'].join(', ')} FROM ${s.table} WHERE ${where} AND asset = '${brand.id}' GROUP BY ALL`,
      bind,
    );
    const groups = new Map<string, { vals: (number | null)[]; pos: number; n: number }>();
    for (let i = 0; i < c[k]!.length; i++) {
      // An aggregate without keys answers one row of NULLs over no input.
      if (c[k + 1]![i] === null) continue;
      const vals = keys.map((_, j) => c[j]![i] as number | null);
      const g = groups.get(groupKey(vals));
      if (g) {
        g.pos += c[k]![i] as number;
        g.n += c[k + 1]![i] as number;
      } else groups.set(groupKey(vals), { vals, pos: c[k]![i] as number, n: c[k + 1]![i] as number });
    }
    const rows = rankWithinDate(keys, [...groups.values()], (g) => -g.n, slice).map(({ g, rank, prefix }) =>
      scoreJson(prefix, rank, g.pos, g.n),
    );
    return v2Page(total ?? groups.size, await models(), rows);
  });
}

/** Every answer with assessments of the brand, by assessments descending, then run id: one ordered statement read a chunk at a time. */
const runStream = stream(async function* (env, p) {
  const brand = brandOf(env, p);
  const sql = `SELECT run::VARCHAR, instant, pos, n FROM floor_sent_runs WHERE ${window} AND asset = '${brand.id}' ORDER BY n DESC, run`;
  let rank = 0;
  for await (const { columns } of env.db.chunks(sql, windowParams(p))) {
    const [run, at, pos, n] = columns as [string[], number[], number[], number[]];
    const out: string[] = new Array(run.length);
    for (let i = 0; i < run.length; i++) {
      out[i] = scoreJson(`"run":{"id":"${run[i]}","created_at":"${isoSecond(at[i]!)}"},`, ++rank, pos[i]!, n[i]!);
    }
    yield out;
  }
});

const theme: KeyDef = {
  field: 'theme',
  sql: 'enum_code(theme)',
  kind: 'ref',
  enumName: 'floor_theme',
  names: 'SELECT id, name FROM themes WHERE category_id = $1',
  column: 'theme',
};
const twoRegions = (env: FloorEnv) =>
  ` AND region IN (${['United States', 'Canada'].map((n) => `'${env.dims.regions[env.dims.regionCode.get(n)!]!.id}'`).join(', ')})`;

export const sentimentFloors: ReportFloors = {
  report: 'sentiment',
  rollups,
  floors: () => ({
    ...Object.fromEntries(
      [1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({ table: 'floor_sent_dmr', keys: [] })]),
    ),
    'theme-30': pageFloor({ table: 'floor_sent_dmr', keys: [theme] }),
    'competitor-30': pageFloor({ table: 'floor_sent_dmr', keys: [], competitors: true, limit: 50 }),
    'model-regions-90': pageFloor({ table: 'floor_sent_dmr', keys: [refKeys.model], filter: twoRegions }),
    'date-prompt-90': pageFloor({ table: 'floor_sent_dp', keys: [dateKeys.day, refKeys.prompt] }),
    'date-prompt-90-p50': pageFloor({ table: 'floor_sent_dp', keys: [dateKeys.day, refKeys.prompt], page: 50 }),
    'stream-run-365': runStream,
  }),
};
