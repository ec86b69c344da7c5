import type { IterationParams } from '../lib/case.ts';
import { addDays } from '../lib/dataset.ts';
import { dayLabel, daySql, dayNumber } from './days.ts';
import { compareText } from './dims.ts';
import { num, str, tabularPage } from './json.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';

/**
 * v1 citations. count: the row's citations after citation-level filters; citation_share: per model, the
 * row's citations over every citation of the same answer-level group (here: the date, or the model)
 * before citation-level filters, averaged over the models with citations in that group, adding the
 * shares in ascending order. Every analysis type; the window is [start, end) in New York days.
 */

const everyPrompt = `SEMI JOIN prompts p ON p.id = f.prompt_id`;
const base = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_cit1_answers',
    grain: 'category × day × model × region',
    measures: 'citations (the share denominators)',
    source: 'citations of every prompt',
    sql: `SELECT ${base}, f.region_id::floor_region AS region, count(*)::INTEGER AS n FROM citations f ${everyPrompt} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_cit1_domains',
    readBy: 'window series, model × root domain',
    grain: 'category × day × model × region × root domain × citation category',
    measures: 'citations',
    source: 'citations of every prompt',
    sql: `SELECT ${base}, f.region_id::floor_region AS region, f.root_domain::floor_domain AS domain, f.citation_category AS ccat, count(*)::INTEGER AS n FROM citations f ${everyPrompt} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_cit1_urls',
    readBy: 'URL × day pages and stream',
    grain: 'category × day × model × URL',
    measures: 'citations',
    source: 'citations of every prompt',
    sql: `SELECT ${base}, f.url::floor_url AS url, count(*)::INTEGER AS n FROM citations f ${everyPrompt} GROUP BY ALL ORDER BY ALL`,
  },
];

const window = 'category_id = $1 AND d >= $2 AND d < $3';
const params = (p: IterationParams) => [p.categoryId, dayNumber(p.startDate), dayNumber(addDays(p.endDate, 1))];

/** The mean of per-model shares, added in ascending order, over the `models` with citations in the group. */
function share(shares: number[], models: number): number {
  shares.sort((a, b) => a - b);
  let sum = 0;
  for (const s of shares) sum += s;
  return sum / models;
}

interface Row {
  count: number;
  shares: number[];
  readonly dims: readonly number[];
}

const rowJson = (count: number, sh: number, dims: string) => `{"metrics":[${count},${num(sh)}],"dimensions":[${dims}]}`;

/** By root domain (the window series), or by model × root domain with answer- and citation-level filters. */
function domainFloor(byModel: boolean, filters?: (env: FloorEnv) => { answers: string; cited: string }) {
  return page(async (env, p) => {
    const f = filters?.(env) ?? { answers: '', cited: '' };
    const [dm, mm, nn] = await env.db.columns(
      `SELECT enum_code(domain), enum_code(model), sum(n)::INTEGER FROM floor_cit1_domains WHERE ${window}${f.answers}${f.cited} GROUP BY ALL`,
      params(p),
    );
    const [tm, tn] = await env.db.columns(
      `SELECT enum_code(model), sum(n)::INTEGER FROM floor_cit1_answers WHERE ${window}${f.answers} GROUP BY ALL`,
      params(p),
    );
    const totals = new Map<number, number>();
    tm!.forEach((m, i) => totals.set(m as number, tn![i] as number));
    const rows = new Map<string, Row>();
    for (let i = 0; i < dm!.length; i++) {
      const model = mm![i] as number;
      const dims = byModel ? [model, dm![i] as number] : [dm![i] as number];
      const key = dims.join(',');
      let r = rows.get(key);
      if (!r) rows.set(key, (r = { count: 0, shares: [], dims }));
      r.count += nn![i] as number;
      r.shares.push((nn![i] as number) / totals.get(model)!);
    }
    const domains = await env.dims.values('floor_domain');
    const models = env.dims.models;
    const list = [...rows.values()].sort(
      (a, b) =>
        b.count - a.count ||
        (byModel
          ? compareText(models[a.dims[0]!]!.name, models[b.dims[0]!]!.name) ||
            compareText(models[a.dims[0]!]!.id, models[b.dims[0]!]!.id)
          : 0) ||
        a.dims[a.dims.length - 1]! - b.dims[b.dims.length - 1]!,
    );
    const out = list.map((r) => {
      const dims = r.dims.map((v, i) => (byModel && i === 0 ? str(models[v]!.name) : str(domains[v]!))).join(',');
      return rowJson(r.count, share(r.shares, byModel ? 1 : totals.size), dims);
    });
    return tabularPage(out.length, out);
  });
}

/**
 * URL × date rows in order (count descending, URL, date; URL codes are in text order) with their share and
 * the total: one aggregate (the per-model shares listed, sorted and added in SQL) and a top-N. For a small
 * first page the shares of only its rows are added in JS instead (`smallPageSql`).
 */
const urlDateSql = (
  limit: string,
) => `WITH t AS (SELECT d, model, sum(n) AS tot FROM floor_cit1_answers WHERE ${window} GROUP BY ALL),
k AS (SELECT d, count(*) AS models FROM t GROUP BY d),
g AS (SELECT r.url, r.d, sum(r.n)::INTEGER AS cnt, list_sum(list_sort(list(r.n / t.tot))) AS shares FROM floor_cit1_urls r JOIN t USING (d, model) WHERE r.category_id = $1 AND r.d >= $2 AND r.d < $3 GROUP BY ALL)
SELECT enum_code(g.url), g.d, g.cnt, g.shares / k.models, (SELECT count(*)::INTEGER FROM g) FROM g JOIN k USING (d) ORDER BY g.cnt DESC, g.url, g.d ${limit}`;

const smallPageSql = (
  limit: number,
) => `WITH g AS (SELECT url, d, sum(n)::INTEGER AS cnt, list(enum_code(model)) AS models, list(n) AS ns FROM floor_cit1_urls WHERE ${window} GROUP BY ALL)
SELECT enum_code(url), d, cnt, models, ns, (SELECT count(*)::INTEGER FROM g) FROM g ORDER BY cnt DESC, url, d LIMIT ${limit}`;

/** Per day, each model's citations and the number of models with citations that day. */
async function dayTotals(env: FloorEnv, p: IterationParams) {
  const [d, m, n] = await env.db.columns(
    `SELECT d, enum_code(model), sum(n)::INTEGER FROM floor_cit1_answers WHERE ${window} GROUP BY ALL`,
    params(p),
  );
  const totals = new Map<number, number>();
  const models = new Map<number, number>();
  for (let i = 0; i < d!.length; i++) {
    totals.set((d![i] as number) * 256 + (m![i] as number), n![i] as number);
    models.set(d![i] as number, (models.get(d![i] as number) ?? 0) + 1);
  }
  return { totals, models };
}

/** Shares of (url, d, count, models, counts) columns: per model over its day's citations, averaged over the day's models. */
async function withShares(env: FloorEnv, p: IterationParams, c: unknown[][]): Promise<unknown[][]> {
  const { totals, models } = await dayTotals(env, p);
  const [u, d, cnt, ms, ns, total] = c as [number[], number[], number[], number[][], number[][], number[]];
  const shares = d.map((day, i) =>
    share(
      ms[i]!.map((m, k) => ns[i]![k]! / totals.get(day * 256 + m)!),
      models.get(day)!,
    ),
  );
  return [u, d, cnt, shares, total];
}

/** Writes the rows of (url, d, count, share) columns. */
function urlDateRows(c: unknown[][], urls: readonly string[], out: string[]): void {
  const [u, d, cnt, sh] = c as [number[], number[], number[], number[]];
  for (let i = 0; i < u.length; i++) out.push(rowJson(cnt[i]!, sh[i]!, `${urls[u[i]!]},"${dayLabel(d[i]!)}"`));
}

function urlDateFloor(limit: number, pageNo: number) {
  const small = pageNo === 1 && limit <= 1000;
  const sqlText = small ? smallPageSql(limit) : urlDateSql(`LIMIT ${limit} OFFSET ${(pageNo - 1) * limit}`);
  const countSql = `SELECT count(*)::INTEGER FROM (SELECT DISTINCT url, d FROM floor_cit1_urls WHERE ${window})`;
  return page(async (env, p) => {
    const read = await env.db.columns(sqlText, params(p));
    const c = small ? await withShares(env, p, read) : read;
    const out: string[] = [];
    urlDateRows(c, await urlJson(env), out);
    const total =
      c[0]!.length > 0 ? (c[4]![0] as number) : ((await env.db.columns(countSql, params(p)))[0]![0] as number);
    return tabularPage(total, out);
  });
}

/** The stream: the same ordered statement, read a chunk at a time (its order is by count, so it cannot be sliced by time). */
const urlDateStream = stream(async function* (env, p) {
  const urls = await urlJson(env);
  for await (const { columns } of env.db.chunks(urlDateSql(''), params(p))) {
    const out: string[] = [];
    urlDateRows(columns, urls, out);
    yield out;
  }
});

/** Every URL as JSON text, by code, written once. */
const urlJson = (env: FloorEnv) => env.dims.memo('url-json', async () => (await env.dims.values('floor_url')).map(str));

const regionsAndEarned = (env: FloorEnv) => ({
  answers: ` AND region IN (${['United States', 'Canada'].map((n) => `'${env.dims.regions[env.dims.regionCode.get(n)!]!.id}'`).join(', ')})`,
  cited: ` AND ccat = 'earned_media'`,
});

export const citationsV1Floors: ReportFloors = {
  report: 'citations-v1',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, domainFloor(false)])),
    'url-date-90-1k': urlDateFloor(1000, 1),
    'url-date-90-1k-p50': urlDateFloor(1000, 50),
    'url-date-90-50k': urlDateFloor(50_000, 1),
    'model-domain-filter-30': domainFloor(true, regionsAndEarned),
    'stream-url-date-90': urlDateStream,
  }),
};
