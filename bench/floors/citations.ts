import type { IterationParams } from '../lib/case.ts';
import { dayLabel, daySql } from './days.ts';
import { compareText, type EnumName } from './dims.ts';
import { num, refJson, str, v2Page } from './json.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { daySlices, windowParams } from './window.ts';

/**
 * v2 citations. Rows are root domains, or pages (URLs) with group_by page, partitioned by the other
 * dimensions (model, date). count: the row's citations after citation-level filters; citation_share: per
 * model, the row's citations over every citation of its partition before citation-level filters,
 * averaged over the models with citations there (added in ascending order); rank: count descending,
 * then share descending, then the domain or URL, within the partition. scope owned keeps, after ranking,
 * the domains with an owned citation. The visibility prompts' answers (no analysis_type leaf).
 */

const visibilityPrompts = `SEMI JOIN prompts p ON p.id = f.prompt_id AND list_contains(p.analysis_types, 'visibility')`;
const base = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_cit2_answers',
    grain: 'category × day × model',
    measures: 'citations (the share denominators)',
    source: 'citations of the prompts carrying the visibility type',
    sql: `SELECT ${base}, count(*)::INTEGER AS n FROM citations f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_cit2_domains',
    readBy: 'every request but pages',
    grain: 'category × day × model × root domain × citation category',
    measures: 'citations',
    source: 'citations of the prompts carrying the visibility type',
    sql: `SELECT ${base}, f.root_domain::floor_domain AS unit, f.citation_category AS ccat, count(*)::INTEGER AS n FROM citations f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_cit2_urls',
    readBy: 'page-30, page-30-p50, stream-page-date-90',
    grain: 'category × day × model × URL',
    measures: 'citations',
    source: 'citations of the prompts carrying the visibility type',
    sql: `SELECT ${base}, f.url::floor_url AS unit, count(*)::INTEGER AS n FROM citations f ${visibilityPrompts} GROUP BY ALL ORDER BY ALL`,
  },
];

interface Spec {
  readonly unit: 'domain' | 'page';
  readonly partition?: 'model' | 'date';
  /** Answer-level predicate (scopes the denominators too) and citation-level one (rows only). */
  readonly answers?: (env: FloorEnv) => string;
  readonly cited?: string;
  readonly owned?: boolean;
  readonly limit?: number;
  readonly page?: number;
}

interface Row {
  readonly part: number;
  readonly unit: number;
  count: number;
  shares: number[];
  owned: boolean;
  share: number;
}

const window = 'category_id = $1 AND d BETWEEN $2 AND $3';

/** Rows of partitions in order, ranked within each, for days [from, to]. */
async function rankedRows(
  env: FloorEnv,
  p: IterationParams,
  s: Spec,
  from: number,
  to: number,
): Promise<{ parts: Map<number, Row[]>; models: Set<number> }> {
  const answers = s.answers?.(env) ?? '';
  const part = s.partition === 'model' ? 'enum_code(model)' : s.partition === 'date' ? 'd' : '0';
  const table = s.unit === 'domain' ? 'floor_cit2_domains' : 'floor_cit2_urls';
  const owned = s.owned ? `bool_or(ccat = 'owned')` : 'false';
  const bind = [p.categoryId, from, to];
  const [rp, ru, rm, rn, ro] = await env.db.columns(
    `SELECT ${part}, enum_code(unit), enum_code(model), sum(n)::INTEGER, ${owned} FROM ${table} WHERE ${window}${answers}${s.cited ?? ''} GROUP BY ALL`,
    bind,
  );
  const [tp, tm, tn] = await env.db.columns(
    `SELECT ${part}, enum_code(model), sum(n)::INTEGER FROM floor_cit2_answers WHERE ${window}${answers} GROUP BY ALL`,
    bind,
  );
  const totals = new Map<number, number>();
  const modelsIn = new Map<number, number>();
  const models = new Set<number>();
  for (let i = 0; i < tp!.length; i++) {
    totals.set((tp![i] as number) * 256 + (tm![i] as number), tn![i] as number);
    modelsIn.set(tp![i] as number, (modelsIn.get(tp![i] as number) ?? 0) + 1);
    models.add(tm![i] as number);
  }
  const byKey = new Map<number, Row>();
  for (let i = 0; i < rp!.length; i++) {
    // Partitions (days, model codes) and unit codes are small integers: one number keys the row.
    const key = (rp![i] as number) * 2 ** 24 + (ru![i] as number);
    let r = byKey.get(key);
    if (!r)
      byKey.set(
        key,
        (r = { part: rp![i] as number, unit: ru![i] as number, count: 0, shares: [], owned: false, share: 0 }),
      );
    r.count += rn![i] as number;
    r.shares.push((rn![i] as number) / totals.get((rp![i] as number) * 256 + (rm![i] as number))!);
    r.owned ||= ro![i] as boolean;
  }
  const parts = new Map<number, Row[]>();
  for (const r of byKey.values()) {
    r.shares.sort((a, b) => a - b);
    let sum = 0;
    for (const x of r.shares) sum += x;
    r.share = sum / modelsIn.get(r.part)!;
    const list = parts.get(r.part) ?? [];
    list.push(r);
    parts.set(r.part, list);
  }
  // Enum codes are in text order, so a code comparison orders domains and URLs by their text.
  for (const list of parts.values()) list.sort((a, b) => b.count - a.count || b.share - a.share || a.unit - b.unit);
  return { parts, models };
}

/** The partitions in row order: models by name, then id; dates ascending. */
function partitionOrder(env: FloorEnv, s: Spec, parts: Iterable<number>): number[] {
  const list = [...parts];
  if (s.partition !== 'model') return list.sort((a, b) => a - b);
  const m = env.dims.models;
  return list.sort((a, b) => compareText(m[a]!.name, m[b]!.name) || compareText(m[a]!.id, m[b]!.id));
}

function rowsOf(
  env: FloorEnv,
  s: Spec,
  units: readonly string[],
  parts: Map<number, Row[]>,
  out: string[],
  from = 0,
  to = Infinity,
): number {
  const field = s.unit === 'domain' ? '"domain"' : '"page"';
  let at = 0;
  for (const part of partitionOrder(env, s, parts.keys())) {
    const prefix =
      s.partition === 'model'
        ? `"model":${refJson(env.dims.models[part]!.id, env.dims.models[part]!.name)},`
        : s.partition === 'date'
          ? `"date":"${dayLabel(part)}",`
          : '';
    parts.get(part)!.forEach((r, i) => {
      if (s.owned && !r.owned) return;
      if (at >= from && at < to)
        out.push(
          `{${prefix}${field}:${str(units[r.unit]!)},"rank":${i + 1},"count":${r.count},"citation_share":${num(r.share)}}`,
        );
      at++;
    });
  }
  return at;
}

const unitEnum = (s: Spec): EnumName => (s.unit === 'domain' ? 'floor_domain' : 'floor_url');

function pageFloor(s: Spec) {
  const limit = s.limit ?? 10;
  return page(async (env, p) => {
    const [, from, to] = windowParams(p) as [string, number, number];
    const { parts, models } = await rankedRows(env, p, s, from, to);
    const out: string[] = [];
    const offset = ((s.page ?? 1) - 1) * limit;
    const total = rowsOf(env, s, await env.dims.values(unitEnum(s)), parts, out, offset, offset + limit);
    return v2Page(total, [...models].map((m) => env.dims.models[m]!.name).sort(), out);
  });
}

/**
 * Rows partitioned by date, ranked in SQL: per day and model the share of every citation of the day, the
 * per-model shares listed, sorted and added, over the day's models; rank by count, share, then the unit
 * (codes in text order); rows by day, then rank; with the window's row count and models.
 */
const byDaySql = (
  table: string,
  limit: string,
) => `WITH t AS (SELECT d, model, sum(n) AS tot FROM floor_cit2_answers WHERE ${window} GROUP BY ALL),
k AS (SELECT d, count(*) AS models FROM t GROUP BY d),
g AS (SELECT r.d, r.unit, sum(r.n)::INTEGER AS cnt, list_sum(list_sort(list(r.n / t.tot))) / any_value(k.models) AS share
  FROM ${table} r JOIN t USING (d, model) JOIN k USING (d) WHERE r.category_id = $1 AND r.d BETWEEN $2 AND $3 GROUP BY r.d, r.unit)
SELECT d, enum_code(unit), cnt, share, row_number() OVER (PARTITION BY d ORDER BY cnt DESC, share DESC, unit)::INTEGER AS rank,
  (SELECT count(*)::INTEGER FROM g), (SELECT list(DISTINCT enum_code(model)) FROM t)
FROM g ORDER BY d, rank ${limit}`;

function byDayRows(s: Spec, units: readonly string[], c: unknown[][]): string[] {
  const [d, u, cnt, share, rank] = c as number[][];
  const field = s.unit === 'domain' ? '"domain"' : '"page"';
  const out: string[] = new Array(d!.length);
  for (let i = 0; i < out.length; i++)
    out[i] =
      `{"date":"${dayLabel(d![i]!)}",${field}:${units[u![i]!]},"rank":${rank![i]},"count":${cnt![i]},"citation_share":${num(share![i]!)}}`;
  return out;
}

const unitJson = (env: FloorEnv, s: Spec) =>
  env.dims.memo(`${unitEnum(s)}-json`, async () => (await env.dims.values(unitEnum(s))).map(str));
const tableOf = (s: Spec) => (s.unit === 'domain' ? 'floor_cit2_domains' : 'floor_cit2_urls');

function byDayPage(s: Spec) {
  return page(async (env, p) => {
    const c = await env.db.columns(byDaySql(tableOf(s), `LIMIT ${s.limit ?? 10}`), windowParams(p));
    const total = c[0]!.length > 0 ? (c[5]![0] as number) : 0;
    const models = c[0]!.length > 0 ? (c[6]![0] as number[]) : [];
    return v2Page(total, models.map((m) => env.dims.models[m]!.name).sort(), byDayRows(s, await unitJson(env, s), c));
  });
}

/**
 * A stream partitioned by date: one slice of days at a time, each day ranked on its own. With thousands
 * of pages a day, adding the shares in JS beats listing them per page in SQL (measured: 0.5×).
 */
function streamFloor(s: Spec, sliceDays: number) {
  return stream(async function* (env, p) {
    const units = await env.dims.values(unitEnum(s));
    const [, start, end] = windowParams(p) as [string, number, number];
    for (const [from, to] of daySlices(start, end, sliceDays)) {
      const { parts } = await rankedRows(env, p, s, from, to);
      const out: string[] = [];
      rowsOf(env, s, units, parts, out);
      yield out;
    }
  });
}

const twoModels = (env: FloorEnv) =>
  ` AND model IN (${['ChatGPT', 'Perplexity'].map((n) => `'${env.dims.models[env.dims.modelCode.get(n)!]!.id}'`).join(', ')})`;

export const citationsFloors: ReportFloors = {
  report: 'citations',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({ unit: 'domain' })])),
    'page-30': pageFloor({ unit: 'page' }),
    'page-30-p50': pageFloor({ unit: 'page', page: 50 }),
    'model-30': pageFloor({ unit: 'domain', partition: 'model' }),
    'date-7': byDayPage({ unit: 'domain', partition: 'date', limit: 50 }),
    'owned-90': pageFloor({ unit: 'domain', owned: true }),
    'filter-90': pageFloor({ unit: 'domain', answers: twoModels, cited: ` AND ccat = 'earned_media'` }),
    'stream-page-date-90': streamFloor({ unit: 'page', partition: 'date' }, 31),
  }),
};
